import MoviesDomain

/// The watchlists a refresh walks: the user's own, and the TMDB account's watchlist as one more
/// list (`tmdb-watchlist`), so its movies are prefetched and pinned like any listed movie. Reads
/// only the local copy (the refresh pulls the account first); edits go to the user's lists.
public struct AccountPinnedWatchlists: WatchlistRepository {
    /// The name the account's watchlist has among the refreshed lists.
    public static let name = "tmdb-watchlist"

    let base: any WatchlistRepository
    let account: AccountSync

    /// Adds the account's watchlist of `account` to the lists of `base`.
    public init(base: any WatchlistRepository, account: AccountSync) {
        self.base = base
        self.account = account
    }

    /// The user's lists, then the account's watchlist when it has movies.
    public func watchlists() async throws -> [Watchlist] {
        var lists = try await base.watchlists()
        let ids = await account.watchlistMovieIDs()
        if !ids.isEmpty, !lists.contains(where: { $0.name == Self.name }) {
            lists.append(Watchlist(name: Self.name, movieIDs: ids))
        }
        return lists
    }

    /// Adds to the user's list `name`.
    public func add(to name: String, queries: [WatchlistQuery], movieIDs: [Int]) async throws -> Watchlist {
        try await base.add(to: name, queries: queries, movieIDs: movieIDs)
    }

    /// Removes from the user's list `name`.
    public func remove(from name: String, queries: [MovieQuery], movieIDs: [Int]) async throws -> Watchlist {
        try await base.remove(from: name, queries: queries, movieIDs: movieIDs)
    }

    /// Deletes the user's list `name`.
    public func delete(_ name: String) async throws -> Bool {
        try await base.delete(name)
    }
}
