import MoviesData
import MoviesDomain

/// `WatchlistStorage` in memory, for tests.
public actor InMemoryWatchlistStorage: WatchlistStorage {
    private var lists: [String: Watchlist] = [:]

    /// Creates an empty storage.
    public init() {}

    /// Every list, by name.
    public func watchlists() -> [Watchlist] {
        lists.values.sorted { $0.name < $1.name }
    }

    /// Inserts or replaces a list.
    public func save(_ watchlist: Watchlist) {
        lists[watchlist.name] = watchlist
    }

    /// Deletes a list.
    public func delete(name: String) -> Bool {
        lists.removeValue(forKey: name) != nil
    }
}
