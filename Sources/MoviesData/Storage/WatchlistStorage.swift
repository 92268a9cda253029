import MoviesDomain

/// Port: where watchlists are persisted. Adapters: `SQLiteWatchlistStorage`, and an in-memory one
/// for tests. Names are compared exactly (the repository validates and trims them).
public protocol WatchlistStorage: Sendable {
    /// Every watchlist, ordered by name; queries and movie ids in insertion order.
    func watchlists() async throws -> [Watchlist]
    /// Inserts or replaces the list `watchlist.name` with exactly this content.
    func save(_ watchlist: Watchlist) async throws
    /// Deletes the list `name`; returns whether it existed.
    func delete(name: String) async throws -> Bool
}
