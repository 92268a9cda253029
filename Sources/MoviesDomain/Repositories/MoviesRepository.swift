/// Search results and movie details, cached then remote.
///
/// Every method emits the cached value first (if the policy allows and one exists), then the fresh
/// value, and returns; or throws a `MoviesError`. Cancelling the calling task stops network work.
public protocol MoviesRepository: Sendable {
    /// One page of search results.
    /// - Parameter maxStaleSeconds: overrides the configured max-stale bound for this request.
    func searchMovies(_ request: SearchRequest, policy: FetchPolicy, maxStaleSeconds: Int?, emit: EmitFetched<MoviesPage>) async throws

    /// One movie's details.
    func movieDetails(id: Int, language: String?, policy: FetchPolicy, emit: EmitFetched<MovieDetails>) async throws

    /// The cached page for `request` in the interface's shape, fresh or stale, read without
    /// decoding it; `nil` on a miss, a negative or corrupt entry, or a storage error. Never touches
    /// the network.
    func cachedSearchAnswer(_ request: SearchRequest) async -> CachedAnswer?

    /// The cached details of movie `id` in the interface's shape, as `cachedSearchAnswer`.
    func cachedMovieAnswer(id: Int, language: String?) async -> CachedAnswer?
}

extension MoviesRepository {
    /// Nothing cached in the interface's shape: always `nil`, so callers use `searchMovies`.
    public func cachedSearchAnswer(_ request: SearchRequest) async -> CachedAnswer? { nil }

    /// Nothing cached in the interface's shape: always `nil`, so callers use `movieDetails`.
    public func cachedMovieAnswer(id: Int, language: String?) async -> CachedAnswer? { nil }
}
