/// Lists recent search queries, newest first.
public struct FetchRecentQueriesUseCase: Sendable {
    /// The default number of queries returned.
    public static let defaultMaxCount = 10

    private let queriesRepository: any MoviesQueriesRepository

    /// Creates the use case.
    public init(queriesRepository: any MoviesQueriesRepository) {
        self.queriesRepository = queriesRepository
    }

    /// At most `maxCount` (clamped to 1...100) queries, newest first.
    public func execute(maxCount: Int = FetchRecentQueriesUseCase.defaultMaxCount) async throws -> [MovieQuery] {
        try await queriesRepository.recentQueries(maxCount: min(max(maxCount, 1), 100))
    }
}
