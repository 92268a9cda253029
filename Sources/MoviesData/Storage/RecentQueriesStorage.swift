import FoundationEssentials
import MoviesDomain

/// Port: the recent search queries. Adapters: `SQLiteRecentQueriesStorage` and an in-memory one.
///
/// Contract: de-duplicated on `MovieQuery.canonical`, newest first, capped at `capacity`.
public protocol RecentQueriesStorage: Sendable {
    /// At most `maxCount` queries, newest first.
    func recentQueries(maxCount: Int) async throws -> [MovieQuery]
    /// Saves `query` as the newest (replacing an equal one), dropping the oldest beyond the cap.
    func save(_ query: MovieQuery, at date: Date) async throws
}
