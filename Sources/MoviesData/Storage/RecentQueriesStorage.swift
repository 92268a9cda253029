import FoundationEssentials
import MoviesDomain

/// Port: the recent search queries. Adapters: `SQLiteRecentQueriesStorage` and an in-memory one.
///
/// Contract: each user's own list, de-duplicated on `MovieQuery.canonical`, newest first, capped
/// at `capacity` per user.
public protocol RecentQueriesStorage: Sendable {
    /// At most `maxCount` of `user`'s queries, newest first.
    func recentQueries(of user: LocalUser, maxCount: Int) async throws -> [MovieQuery]
    /// Saves `query` as `user`'s newest (replacing an equal one), dropping their oldest beyond the cap.
    func save(_ query: MovieQuery, for user: LocalUser, at date: Date) async throws
    /// Deletes `user`'s queries; returns how many there were.
    func clear(of user: LocalUser) async throws -> Int
}
