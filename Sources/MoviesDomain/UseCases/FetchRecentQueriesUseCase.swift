/// Lists a caller's own recent search queries, newest first, saves one the caller committed to,
/// and clears them (a caller without credentials has none, and saves nothing).
public struct FetchRecentQueriesUseCase: Sendable {
    /// The default number of queries returned.
    public static let defaultMaxCount = 10

    private let queriesRepository: any MoviesQueriesRepository

    /// Creates the use case.
    public init(queriesRepository: any MoviesQueriesRepository) {
        self.queriesRepository = queriesRepository
    }

    /// At most `maxCount` (clamped to 1...100) of the caller's queries, newest first.
    public func execute(in scope: OwnerScope, maxCount: Int = FetchRecentQueriesUseCase.defaultMaxCount) async throws -> [MovieQuery] {
        guard let user = scope.user else { return [] }
        return try await queriesRepository.recentQueries(of: user, maxCount: min(max(maxCount, 1), 100))
    }

    /// Saves `query` as the caller's newest recent query (a query the user committed to in a
    /// client that searched it without saving it, as `movies browse` does while the user types).
    public func save(_ query: MovieQuery, in scope: OwnerScope) async throws {
        guard let user = scope.user else { return }
        try await queriesRepository.saveRecentQuery(query, for: user)
    }

    /// Forgets the caller's recent queries (nobody else's); returns how many there were.
    public func clear(in scope: OwnerScope) async throws -> Int {
        guard let user = scope.user else { return 0 }
        return try await queriesRepository.clearRecentQueries(of: user)
    }
}
