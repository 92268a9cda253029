/// Search results and movie details, cached then remote.
///
/// A call is planned once (`FetchPlan.make`) from its policy and one lookup of its cached entry.
/// The whole call (`searchMovies(_:policy:maxStaleSeconds:emit:)`) looks up, plans and carries the
/// plan out, emitting the cached value first (when the plan answers with it), then the fresh one.
/// A caller that answered the plan's immediate part itself, from its own lookup (the daemon's
/// service, from memory), hands the plan on for the rest (`searchMovies(_:plan:emit:)`).
/// Every method throws a `MoviesError`; cancelling the calling task stops network work.
public protocol MoviesRepository: Sendable {
    /// One page of search results, the whole call.
    /// - Parameter maxStaleSeconds: overrides the configured max-stale bound for this request.
    func searchMovies(_ request: SearchRequest, policy: FetchPolicy, maxStaleSeconds: Int?, emit: EmitFetched<MoviesPage>) async throws

    /// The cached entry for `request`, read once, never from the network.
    func lookupSearch(_ request: SearchRequest) async -> CacheLookup

    /// The rest of a search planned from `lookupSearch`: the caller answered `plan.immediate`.
    func searchMovies(_ request: SearchRequest, plan: FetchPlan, emit: EmitFetched<MoviesPage>) async throws

    /// One movie's details, the whole call.
    func movieDetails(id: Int, language: String?, policy: FetchPolicy, emit: EmitFetched<MovieDetails>) async throws

    /// The cached details of movie `id`, read once, never from the network.
    func lookupMovie(id: Int, language: String?) async -> CacheLookup

    /// The rest of a movie's details planned from `lookupMovie`: the caller answered `plan.immediate`.
    func movieDetails(id: Int, language: String?, plan: FetchPlan, emit: EmitFetched<MovieDetails>) async throws
}
