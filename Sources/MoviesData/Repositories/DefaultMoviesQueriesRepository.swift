import FoundationEssentials
import MoviesDomain

/// Recent search queries over a `RecentQueriesStorage` (newest first, de-duplicated, capped).
public struct DefaultMoviesQueriesRepository: MoviesQueriesRepository {
    private let storage: any RecentQueriesStorage
    private let now: @Sendable () -> Date

    /// Creates the repository.
    public init(storage: any RecentQueriesStorage, now: @escaping @Sendable () -> Date = { Date() }) {
        self.storage = storage
        self.now = now
    }

    /// At most `maxCount` recent queries, newest first.
    public func recentQueries(maxCount: Int) async throws -> [MovieQuery] {
        try await storage.recentQueries(maxCount: maxCount)
    }

    /// Records `query` as the most recent one.
    public func saveRecentQuery(_ query: MovieQuery) async throws {
        try await storage.save(query, at: now())
    }
}
