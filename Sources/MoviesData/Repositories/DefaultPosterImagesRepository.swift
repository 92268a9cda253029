import FoundationEssentials
import MoviesDomain

/// Poster images from TMDB's image server, cached forever: posters are immutable, so a cached
/// poster never touches the network, whatever the policy.
///
/// The image base URL comes from TMDB's configuration, itself cached for the configuration's
/// fresh lifetime (and served stale if TMDB cannot be reached).
public struct DefaultPosterImagesRepository: PosterImagesRepository {
    let loader: CachedRemoteLoader

    /// Creates the repository; see `DefaultMoviesRepository.init` for the parameters.
    public init(
        storage: any ResponseStorage, remote: any MoviesRemote, health: RemoteHealth,
        policy: CachePolicy = CachePolicy(), evictionInterval: Int = 32,
        now: @escaping @Sendable () -> Date = { Date() }, storageHealth: StorageHealthMonitor? = nil
    ) {
        loader = CachedRemoteLoader(
            storage: storage, remote: remote, health: health, policy: policy, now: now,
            flights: SingleFlight(), evictionSchedule: EvictionSchedule(every: evictionInterval),
            storageHealth: storageHealth ?? StorageHealthMonitor(events: health.events))
    }

    /// The poster at `path` in `size`: the cached copy if any (an address never changes what it
    /// shows, so any policy but `cache_only` is `cache_first` here), else fetched (unless
    /// `cache_only`). Who asks is the caller's policy's (`FetchPlan.demand`).
    public func posterImage(path: String, size: PosterSize, policy: FetchPolicy, emit: EmitFetched<PosterImage>) async throws {
        let posterPolicy: FetchPolicy = policy == .cacheOnly ? .cacheOnly : .cacheFirst
        var resource = Self.poster(path: path, size: size, baseURL: "")
        let cached = try await loader.lookup(resource, for: posterPolicy)
        let entry = loader.entry(of: cached, resourceClass: .poster, maxStaleSeconds: nil)
        let plan = FetchPlan.make(policy: posterPolicy, streams: false, entry: entry, asker: FetchPlan.demand(of: policy, asker: RemoteDemand.current))
        do {
            if plan.fetches { resource = Self.poster(path: path, size: size, baseURL: try await configurationBaseURL(asker: plan.demand)) }
        } catch {
            throw MoviesError(wrapping: error)
        }
        try await loader.execute(resource, plan: plan, cached: cached, emit: emit)
    }

    /// TMDB's `secure_base_url`, from the cached configuration when fresh enough.
    private func configurationBaseURL(asker: RemoteDemand) async throws -> String {
        let configuration = CachedResource<ConfigurationDTO>(
            key: CacheKey.configuration, resourceClass: .configuration, request: .configuration,
            decode: { entry in try ConfigurationDTO.decode(entry.body) },
            notFound: MoviesError(code: .notFound, message: "TMDB has no configuration", httpStatus: 404))
        var latest: ConfigurationDTO?
        try await RemoteDemand.$current.withValue(asker) {
            try await loader.run(configuration, policy: .cacheFirst) { latest = $0.value }
        }
        guard let latest else {
            throw MoviesError(code: .invalidResponse, message: "TMDB's configuration could not be loaded")
        }
        return latest.images.secureBaseURL
    }

    /// The poster resource; the decoded value is the stored bytes with their media type.
    static func poster(path: String, size: PosterSize, baseURL: String) -> CachedResource<PosterImage> {
        CachedResource(
            key: CacheKey.poster(path: path, size: size), resourceClass: .poster,
            request: .image(baseURL: baseURL, size: size.rawValue, path: path),
            decode: { entry in
                guard !entry.body.isEmpty else {
                    throw MoviesError(code: .invalidResponse, message: "TMDB sent an empty image")
                }
                return PosterImage(bytes: entry.body, mimeType: entry.contentType, size: size)
            },
            notFound: MoviesError(code: .notFound, message: "TMDB has no poster at \(path)", httpStatus: 404))
    }
}
