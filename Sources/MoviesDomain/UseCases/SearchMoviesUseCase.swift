/// Searches movies, cached then remote, and remembers the query once TMDB has answered it.
///
/// As in the iOS sample, the query is saved to recent queries only after a successful network
/// fetch (origin `network` or `revalidated`), for every page, never for a cache-only answer; it
/// is saved as the requester's own (private history), and not at all without a requester.
/// A failure to save the query never fails the search.
public struct SearchMoviesUseCase: Sendable {
    private let moviesRepository: any MoviesRepository
    private let queriesRepository: any MoviesQueriesRepository

    /// Creates the use case.
    public init(moviesRepository: any MoviesRepository, queriesRepository: any MoviesQueriesRepository) {
        self.moviesRepository = moviesRepository
        self.queriesRepository = queriesRepository
    }

    /// The cached page for `request` in the interface's shape (fresh or stale), without decoding
    /// it: what a cached reply is made of. Never touches the network and never saves a recent
    /// query (only a network answer does); `nil` when nothing usable is cached.
    public func cachedAnswer(_ request: SearchRequest) async -> CachedAnswer? {
        await moviesRepository.cachedSearchAnswer(request)
    }

    /// Runs the search for `requester`; see `MoviesRepository.searchMovies`.
    public func execute(
        _ request: SearchRequest, policy: FetchPolicy = .default, maxStaleSeconds: Int? = nil, requester: LocalUser?,
        emit: @escaping EmitFetched<MoviesPage>
    ) async throws {
        let queries = queriesRepository
        try await moviesRepository.searchMovies(request, policy: policy, maxStaleSeconds: maxStaleSeconds) { update in
            if let requester, update.freshness.origin == .network || update.freshness.origin == .revalidated {
                try? await queries.saveRecentQuery(request.query, for: requester)
            }
            await emit(update)
        }
    }
}
