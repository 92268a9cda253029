import MoviesData
import MoviesDomain

/// `WatchlistStorage` in memory, for tests.
public actor InMemoryWatchlistStorage: WatchlistStorage {
    private struct Key: Hashable {
        let owner: Owner
        let name: String
    }

    private var lists: [Key: Watchlist] = [:]

    /// Creates an empty storage.
    public init() {}

    /// Every list: the system's first, then by uid, by name.
    public func watchlists() -> [Watchlist] {
        lists.values.sorted { ($0.owner.sortKey, $0.name) < ($1.owner.sortKey, $1.name) }
    }

    /// The lists of `owners`, in the same order.
    public func watchlists(of owners: Set<Owner>) -> [Watchlist] {
        watchlists().filter { owners.contains($0.owner) }
    }

    /// Inserts or replaces a list.
    public func save(_ watchlist: Watchlist) {
        lists[Key(owner: watchlist.owner, name: watchlist.name)] = watchlist
    }

    /// Deletes a list.
    public func delete(name: String, owner: Owner) -> Bool {
        lists.removeValue(forKey: Key(owner: owner, name: name)) != nil
    }
}

extension Owner {
    fileprivate var sortKey: Int64 { user.map { Int64($0.uid) } ?? -1 }
}
