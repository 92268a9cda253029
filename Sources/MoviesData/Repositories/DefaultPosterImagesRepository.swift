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
    ///
    /// When this size was never stored and TMDB cannot be reached (or the policy forbids it), a
    /// stored copy of the same poster in another size stands in (``standIn(path:for:)``): a
    /// watchlist's refresh stores one size of each poster for offline use, and a user offline
    /// asks for whichever. The image's `size` says which it is; its freshness says why.
    public func posterImage(path: String, size: PosterSize, policy: FetchPolicy, emit: EmitFetched<PosterImage>) async throws {
        let posterPolicy: FetchPolicy = policy == .cacheOnly ? .cacheOnly : .cacheFirst
        var resource = Self.poster(path: path, size: size, baseURL: "")
        let cached = try await loader.lookup(resource, for: posterPolicy)
        let entry = loader.entry(of: cached, resourceClass: .poster, maxStaleSeconds: nil)
        let plan = FetchPlan.make(policy: posterPolicy, streams: false, entry: entry, asker: FetchPlan.demand(of: policy, asker: RemoteDemand.current))
        do {
            if plan.fetches { resource = Self.poster(path: path, size: size, baseURL: try await configurationBaseURL(asker: plan.demand)) }
            try await loader.execute(resource, plan: plan, cached: cached, emit: emit)
        } catch {
            let failure = MoviesError(wrapping: error)
            guard case .missing = cached, failure.code == .remoteUnavailable || failure.code == .notCached,
                  let standIn = await standIn(path: path, for: size) else { throw failure }
            // Why the asked size was not fetched: TMDB's failure (none when the policy kept it from asking).
            let reason = failure.code == .notCached ? nil : failure.message
            await emit(loader.cachedUpdate(standIn.value, standIn.entry, encoded: standIn.encoded, remoteError: reason))
        }
    }

    /// A stored copy of the poster at `path` in another size than `size`: the nearest larger one,
    /// else the largest smaller one (`original` counts as the largest).
    private func standIn(path: String, for size: PosterSize) async -> (value: PosterImage, entry: StoredResponse, encoded: [UInt8]?)? {
        let sizes = PosterSize.allCases
        guard let asked = sizes.firstIndex(of: size) else { return nil }
        let larger = sizes[sizes.index(after: asked)...]
        let smaller = sizes[..<asked].reversed()
        for other in Array(larger) + Array(smaller) {
            if case .value(let value, let entry, let encoded) = await loader.lookupRecordingFailure(Self.poster(path: path, size: other, baseURL: "")) {
                return (value, entry, encoded)
            }
        }
        return nil
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
