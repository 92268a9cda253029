import MoviesDomain

/// Port: where watchlists are persisted. Adapters: `SQLiteWatchlistStorage`, and an in-memory one
/// for tests. A list is named uniquely per owner; names are compared exactly (the repository
/// validates and trims them).
public protocol WatchlistStorage: Sendable {
    /// Every watchlist of every owner: the system's first, then each user's; by name within an
    /// owner; queries and movie ids in insertion order.
    func watchlists() async throws -> [Watchlist]
    /// The watchlists of `owners` alone, in the same order: what one caller's call needs, read
    /// without touching (or spending time on) anyone else's.
    func watchlists(of owners: Set<Owner>) async throws -> [Watchlist]
    /// Inserts or replaces the list `watchlist.name` of `watchlist.owner` with exactly this content.
    func save(_ watchlist: Watchlist) async throws
    /// Deletes `owner`'s list `name`; returns whether it existed.
    func delete(name: String, owner: Owner) async throws -> Bool
}
