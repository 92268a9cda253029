/// Searches movies, cached then remote, and remembers the query once TMDB has answered it.
///
/// As in the iOS sample, the query is saved to recent queries only after a successful network
/// fetch (origin `network` or `revalidated`), for every page, never for a cache-only answer.
/// A failure to save the query never fails the search.
public struct SearchMoviesUseCase: Sendable {
    private let moviesRepository: any MoviesRepository
    private let queriesRepository: any MoviesQueriesRepository

    /// Creates the use case.
    public init(moviesRepository: any MoviesRepository, queriesRepository: any MoviesQueriesRepository) {
        self.moviesRepository = moviesRepository
        self.queriesRepository = queriesRepository
    }

    /// The fresh cached page for `request`, when `execute(request, policy: policy)` would answer
    /// with exactly that single cached update (policies `cacheFirst` and `cacheOnly`, whose fresh
    /// cache hits neither touch the network nor save a recent query); otherwise `nil`, and the
    /// caller runs `execute`. A cheap probe: no task, no stream.
    public func cachedIfFresh(_ request: SearchRequest, policy: FetchPolicy) async -> Fetched<MoviesPage>? {
        guard policy == .cacheFirst || policy == .cacheOnly else { return nil }
        return await moviesRepository.cachedSearchIfFresh(request)
    }

    /// `cachedIfFresh(request, policy:)`'s answer when the repository has it in memory, without
    /// waiting; `nil` otherwise (then use `cachedIfFresh` or `execute`). Never blocks.
    public func freshInMemory(_ request: SearchRequest, policy: FetchPolicy) -> RememberedFetch<MoviesPage>? {
        guard policy == .cacheFirst || policy == .cacheOnly else { return nil }
        return moviesRepository.freshSearchInMemory(request)
    }

    /// Runs the search; see `MoviesRepository.searchMovies`.
    public func execute(_ request: SearchRequest, policy: FetchPolicy = .default, maxStaleSeconds: Int? = nil) -> FetchedStream<MoviesPage> {
        let upstream = moviesRepository.searchMovies(request, policy: policy, maxStaleSeconds: maxStaleSeconds)
        let queries = queriesRepository
        let (stream, continuation) = FetchedStream<MoviesPage>.makeStream()
        let task = Task {
            do {
                for try await update in upstream {
                    if update.freshness.origin != .cache {
                        try? await queries.saveRecentQuery(request.query)
                    }
                    continuation.yield(update)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
