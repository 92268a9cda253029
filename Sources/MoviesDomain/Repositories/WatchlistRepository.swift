/// Named watchlists of every owner, persisted. Mutations return the list as it now is.
public protocol WatchlistRepository: Sendable {
    /// Every watchlist of every owner: the system's first, then each user's, by name.
    func watchlists() async throws -> [Watchlist]
    /// The watchlists of `owners` alone, in the same order: a caller's call reads these, so that
    /// neither its answer nor its time depends on anyone else's lists.
    func watchlists(of owners: Set<Owner>) async throws -> [Watchlist]
    /// Adds queries and movies to `owner`'s list `name`, creating it if needed.
    func add(to name: String, owner: Owner, queries: [WatchlistQuery], movieIDs: [Int]) async throws -> Watchlist
    /// Removes queries and movies from `owner`'s list `name`; throws `notFound` when there is no such list.
    func remove(from name: String, owner: Owner, queries: [MovieQuery], movieIDs: [Int]) async throws -> Watchlist
    /// Deletes `owner`'s list `name`; returns whether it existed.
    func delete(_ name: String, owner: Owner) async throws -> Bool
}
