/// Fetches one movie's details, cached then remote.
public struct FetchMovieDetailsUseCase: Sendable {
    private let moviesRepository: any MoviesRepository

    /// Creates the use case.
    public init(moviesRepository: any MoviesRepository) {
        self.moviesRepository = moviesRepository
    }

    /// The cached details of movie `id`, read once: what a call's plan and cached replies are
    /// made of. Never touches the network.
    public func lookup(id: Int, language: String?) async -> CacheLookup {
        await moviesRepository.lookupMovie(id: id, language: language)
    }

    /// Runs the whole fetch; ids must be positive.
    public func execute(id: Int, language: String? = nil, policy: FetchPolicy = .default, emit: EmitFetched<MovieDetails>) async throws {
        try Self.check(id)
        try await moviesRepository.movieDetails(id: id, language: language, policy: policy, emit: emit)
    }

    /// Runs the rest of a fetch planned from `lookup` (the caller answered `plan.immediate`).
    public func execute(id: Int, language: String?, plan: FetchPlan, emit: EmitFetched<MovieDetails>) async throws {
        try Self.check(id)
        try await moviesRepository.movieDetails(id: id, language: language, plan: plan, emit: emit)
    }

    private static func check(_ id: Int) throws {
        guard id > 0 else { throw MoviesError.invalidArgument("movie id must be a positive integer, got \(id)") }
    }
}
