import FoundationEssentials
import MoviesDomain
import MoviesWire

/// Search results and movie details, cached then remote (DESIGN §2 and §4).
///
/// Raw TMDB responses are stored under canonical keys and decoded with the DTOs both before they
/// are stored (a malformed body is never stored) and when read (a corrupt body is a miss). A failed
/// fetch never touches the stored entry.
public struct DefaultMoviesRepository: MoviesRepository {
    let loader: CachedRemoteLoader

    /// Creates the repository.
    /// - Parameters:
    ///   - storage: where raw responses are cached.
    ///   - remote: TMDB.
    ///   - health: the remote's health, shared by every repository that calls TMDB.
    ///   - policy: fresh lifetimes, max-stale bounds, negative TTL and byte budget.
    ///   - evictionInterval: the byte budget is enforced once every this many writes.
    ///   - now: the clock.
    ///   - storageHealth: where failed and successful writes are recorded (shared with `Status`);
    ///     a monitor of its own reporting to `health.events` when `nil`.
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

    /// One page of search results; see `MoviesRepository.searchMovies`.
    public func searchMovies(_ request: SearchRequest, policy: FetchPolicy, maxStaleSeconds: Int?, emit: EmitFetched<MoviesPage>) async throws {
        try await loader.run(searchResource(request), fetchPolicy: policy, maxStaleSeconds: maxStaleSeconds, emit: emit)
    }

    /// The cached page for `request` in the interface's shape; see `MoviesRepository.cachedSearchAnswer`.
    public func cachedSearchAnswer(_ request: SearchRequest) async -> CachedAnswer? {
        await loader.cachedAnswer(searchResource(request))
    }

    /// A value's JSON in the interface's shape, as stored with its response.
    @Sendable private static func replyJSON<Value: Encodable>(_ value: Value) -> Data? {
        (try? WireCoding.bytes(value)).map { Data($0) }
    }

    private static func searchKey(_ request: SearchRequest) -> String {
        CacheKey.search(request.query, page: request.page, language: request.language)
    }

    private func searchResource(_ request: SearchRequest) -> CachedResource<MoviesPage> {
        CachedResource<MoviesPage>(
            key: Self.searchKey(request),
            resourceClass: .search,
            request: .search(query: request.query.query, page: request.page, language: request.language),
            decode: { entry in try MoviesResponseDTO.decode(entry.body).toDomain() },
            reply: Self.replyJSON,
            notFound: MoviesError(code: .notFound, message: "TMDB has no results for '\(request.query.query)'", httpStatus: 404))
    }

    /// One movie's details; see `MoviesRepository.movieDetails`.
    public func movieDetails(id: Int, language: String?, policy: FetchPolicy, emit: EmitFetched<MovieDetails>) async throws {
        let resource = CachedResource<MovieDetails>(
            key: CacheKey.movie(id: id, language: language),
            resourceClass: .movie,
            request: .movie(id: id, language: language),
            decode: { entry in try MovieDetailsDTO.decode(entry.body).toDomain() },
            reply: Self.replyJSON,
            notFound: MoviesError(code: .notFound, message: "TMDB has no movie with id \(id)", httpStatus: 404, tmdbCode: 34, movieID: id))
        try await loader.run(resource, fetchPolicy: policy, maxStaleSeconds: nil, emit: emit)
    }
}
