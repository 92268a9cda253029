/// Named watchlists, persisted. Mutations return the list as it now is.
public protocol WatchlistRepository: Sendable {
    /// Every watchlist, by name.
    func watchlists() async throws -> [Watchlist]
    /// Adds queries and movies to the list `name`, creating it if needed.
    func add(to name: String, queries: [WatchlistQuery], movieIDs: [Int]) async throws -> Watchlist
    /// Removes queries and movies from the list `name`; throws `invalidArgument` when there is no such list.
    func remove(from name: String, queries: [MovieQuery], movieIDs: [Int]) async throws -> Watchlist
    /// Deletes the list `name`; returns whether it existed.
    func delete(_ name: String) async throws -> Bool
}
