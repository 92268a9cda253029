/// Lists a user's recent search queries, newest first, and clears them.
public struct FetchRecentQueriesUseCase: Sendable {
    /// The default number of queries returned.
    public static let defaultMaxCount = 10

    private let queriesRepository: any MoviesQueriesRepository

    /// Creates the use case.
    public init(queriesRepository: any MoviesQueriesRepository) {
        self.queriesRepository = queriesRepository
    }

    /// At most `maxCount` (clamped to 1...100) of `user`'s queries, newest first.
    public func execute(for user: LocalUser, maxCount: Int = FetchRecentQueriesUseCase.defaultMaxCount) async throws -> [MovieQuery] {
        try await queriesRepository.recentQueries(of: user, maxCount: min(max(maxCount, 1), 100))
    }

    /// Forgets `user`'s recent queries (nobody else's); returns how many there were.
    public func clear(for user: LocalUser) async throws -> Int {
        try await queriesRepository.clearRecentQueries(of: user)
    }
}
