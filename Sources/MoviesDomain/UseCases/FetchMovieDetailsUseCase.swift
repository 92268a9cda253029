/// Fetches one movie's details, cached then remote.
public struct FetchMovieDetailsUseCase: Sendable {
    private let moviesRepository: any MoviesRepository

    /// Creates the use case.
    public init(moviesRepository: any MoviesRepository) {
        self.moviesRepository = moviesRepository
    }

    /// The cached details of movie `id` in the interface's shape (fresh or stale), without
    /// decoding them; never touches the network. `nil` when nothing usable is cached.
    public func cachedAnswer(id: Int, language: String?) async -> CachedAnswer? {
        await moviesRepository.cachedMovieAnswer(id: id, language: language)
    }

    /// Runs the fetch; ids must be positive.
    public func execute(id: Int, language: String? = nil, policy: FetchPolicy = .default, emit: EmitFetched<MovieDetails>) async throws {
        guard id > 0 else { throw MoviesError.invalidArgument("movie id must be a positive integer, got \(id)") }
        try await moviesRepository.movieDetails(id: id, language: language, policy: policy, emit: emit)
    }
}
