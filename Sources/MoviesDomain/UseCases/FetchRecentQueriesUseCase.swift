/// Lists a user's recent search queries, newest first, saves one the user committed to, and
/// clears them.
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

    /// Saves `query` as `user`'s newest recent query (a query the user committed to in a client
    /// that searched it without saving it, as `movies browse` does while the user types).
    public func save(_ query: MovieQuery, for user: LocalUser) async throws {
        try await queriesRepository.saveRecentQuery(query, for: user)
    }

    /// Forgets `user`'s recent queries (nobody else's); returns how many there were.
    public func clear(for user: LocalUser) async throws -> Int {
        try await queriesRepository.clearRecentQueries(of: user)
    }
}
