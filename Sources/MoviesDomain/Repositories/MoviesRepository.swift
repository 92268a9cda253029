/// Search results and movie details, cached then remote.
///
/// Every method returns a stream that delivers the cached value first (if the policy allows and
/// one exists), then the fresh value or an error, and always terminates. Cancelling the consuming
/// task stops network work and finishes the stream.
public protocol MoviesRepository: Sendable {
    /// One page of search results.
    /// - Parameter maxStaleSeconds: overrides the configured max-stale bound for this request.
    func searchMovies(_ request: SearchRequest, policy: FetchPolicy, maxStaleSeconds: Int?) -> FetchedStream<MoviesPage>

    /// One movie's details.
    func movieDetails(id: Int, language: String?, policy: FetchPolicy) -> FetchedStream<MovieDetails>

    /// The cached page for `request` in the interface's shape, fresh or stale, read without
    /// decoding it; `nil` on a miss, a negative or corrupt entry, or a storage error. Never touches
    /// the network.
    func cachedSearchAnswer(_ request: SearchRequest) async -> CachedAnswer?
}

extension MoviesRepository {
    /// Nothing cached in the interface's shape: always `nil`, so callers use `searchMovies`.
    public func cachedSearchAnswer(_ request: SearchRequest) async -> CachedAnswer? { nil }
}
