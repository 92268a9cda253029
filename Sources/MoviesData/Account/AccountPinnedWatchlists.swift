import MoviesDomain

/// The watchlists a refresh walks: every owner's own, and each TMDB account's watchlist as one
/// more list of its owner (`tmdb-watchlist`), so its movies are prefetched and pinned like any
/// listed movie. Reads only the local copies (the refresh pulls the accounts first); edits go to
/// the owners' lists.
public struct AccountPinnedWatchlists: WatchlistRepository {
    /// The name an account's watchlist has among its owner's refreshed lists.
    public static let name = "tmdb-watchlist"

    let base: any WatchlistRepository
    let accounts: AccountDirectory

    /// Adds each account of `accounts` to the lists of `base`.
    public init(base: any WatchlistRepository, accounts: AccountDirectory) {
        self.base = base
        self.accounts = accounts
    }

    /// The owners' lists, then each account's watchlist that has movies (unless its owner has a
    /// list of that name).
    public func watchlists() async throws -> [Watchlist] {
        var lists = try await base.watchlists()
        for list in await accounts.accountWatchlists() where !lists.contains(where: { $0.name == list.name && $0.owner == list.owner }) {
            lists.append(list)
        }
        return lists
    }

    /// The lists of `owners`, then the watchlists of their accounts (as `watchlists()`).
    public func watchlists(of owners: Set<Owner>) async throws -> [Watchlist] {
        var lists = try await base.watchlists(of: owners)
        for list in await accounts.accountWatchlists(of: owners) where !lists.contains(where: { $0.name == list.name && $0.owner == list.owner }) {
            lists.append(list)
        }
        return lists
    }

    /// Adds to `owner`'s list `name`.
    public func add(to name: String, owner: Owner, queries: [WatchlistQuery], movieIDs: [Int]) async throws -> Watchlist {
        try await base.add(to: name, owner: owner, queries: queries, movieIDs: movieIDs)
    }

    /// Removes from `owner`'s list `name`.
    public func remove(from name: String, owner: Owner, queries: [MovieQuery], movieIDs: [Int]) async throws -> Watchlist {
        try await base.remove(from: name, owner: owner, queries: queries, movieIDs: movieIDs)
    }

    /// Deletes `owner`'s list `name`.
    public func delete(_ name: String, owner: Owner) async throws -> Bool {
        try await base.delete(name, owner: owner)
    }
}
