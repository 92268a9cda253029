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

    /// The cached page for `request` when it is fresh (not stale), as the only update a
    /// `cacheFirst` search stream would deliver; `nil` on a miss, a stale or negative entry, or a
    /// storage error (the caller then uses `searchMovies`). Never touches the network.
    func cachedSearchIfFresh(_ request: SearchRequest) async -> Fetched<MoviesPage>?

    /// What `cachedSearchIfFresh` would answer, when the repository can hand it out from memory
    /// at once; `nil` when finding out would take I/O or waiting. Never blocks: safe on an event
    /// loop thread.
    func freshSearchInMemory(_ request: SearchRequest) -> RememberedFetch<MoviesPage>?
}

extension MoviesRepository {
    /// No fast path: always `nil`, so callers use `searchMovies`.
    public func cachedSearchIfFresh(_ request: SearchRequest) async -> Fetched<MoviesPage>? { nil }

    /// No memory: always `nil`.
    public func freshSearchInMemory(_ request: SearchRequest) -> RememberedFetch<MoviesPage>? { nil }
}
