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

    /// The cached page for `request`, read once: what a call's plan and cached replies are made
    /// of. Never touches the network and never saves a recent query.
    public func lookup(_ request: SearchRequest) async -> CacheLookup {
        await moviesRepository.lookupSearch(request)
    }

    /// Runs the whole search for `requester`; see `MoviesRepository.searchMovies`.
    public func execute(
        _ request: SearchRequest, policy: FetchPolicy = .default, maxStaleSeconds: Int? = nil, requester: LocalUser?,
        emit: @escaping EmitFetched<MoviesPage>
    ) async throws {
        let remembering = remembering(request, for: requester, emit: emit)
        try await moviesRepository.searchMovies(request, policy: policy, maxStaleSeconds: maxStaleSeconds, emit: remembering)
    }

    /// Runs the rest of a search planned from `lookup` (the caller answered `plan.immediate`).
    public func execute(_ request: SearchRequest, plan: FetchPlan, requester: LocalUser?, emit: @escaping EmitFetched<MoviesPage>) async throws {
        try await moviesRepository.searchMovies(request, plan: plan, emit: remembering(request, for: requester, emit: emit))
    }

    /// `emit`, saving the query to `requester`'s recent queries with each answer from TMDB.
    private func remembering(_ request: SearchRequest, for requester: LocalUser?, emit: @escaping EmitFetched<MoviesPage>) -> EmitFetched<MoviesPage> {
        let queries = queriesRepository
        return { update in
            if let requester, update.freshness.origin == .network || update.freshness.origin == .revalidated {
                try? await queries.saveRecentQuery(request.query, for: requester)
            }
            await emit(update)
        }
    }
}
