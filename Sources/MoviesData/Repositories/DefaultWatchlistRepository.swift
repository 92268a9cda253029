import MoviesDomain

/// Watchlists over a `WatchlistStorage`. Edits are read-modify-write, serialized by the actor.
/// Entries no longer on any list are unpinned, so eviction may remove them again.
public actor DefaultWatchlistRepository: WatchlistRepository {
    private let storage: any WatchlistStorage
    private let responses: any ResponseStorage
    private let didChange: @Sendable () -> Void

    /// Creates the repository; `responses` is the cache whose entries are pinned and unpinned;
    /// `didChange` is called after every edit (to wake the refresh scheduler).
    public init(storage: any WatchlistStorage, responses: any ResponseStorage, didChange: @escaping @Sendable () -> Void = {}) {
        self.storage = storage
        self.responses = responses
        self.didChange = didChange
    }

    /// Every watchlist, by name.
    public func watchlists() async throws -> [Watchlist] {
        try await storage.watchlists()
    }

    /// Adds entries to `name`, creating the list if needed.
    public func add(to name: String, queries: [WatchlistQuery], movieIDs: [Int]) async throws -> Watchlist {
        let all = try await storage.watchlists()
        var list = all.first { $0.name == name } ?? Watchlist(name: name)
        let before = WatchlistCacheKeys.keys(of: all)
        list.add(queries: queries, movieIDs: movieIDs)
        try await storage.save(list)
        // Lowering a query's depth frees the pages beyond it.
        try await unpinUnused(before: before)
        didChange()
        return list
    }

    /// Removes entries from `name`.
    public func remove(from name: String, queries: [MovieQuery], movieIDs: [Int]) async throws -> Watchlist {
        let all = try await storage.watchlists()
        guard var list = all.first(where: { $0.name == name }) else {
            throw MoviesError.invalidArgument("there is no watchlist named '\(name)'")
        }
        list.remove(queries: queries, movieIDs: movieIDs)
        try await storage.save(list)
        try await unpinUnused(before: WatchlistCacheKeys.keys(of: all))
        didChange()
        return list
    }

    /// Deletes `name`.
    public func delete(_ name: String) async throws -> Bool {
        let before = WatchlistCacheKeys.keys(of: try await storage.watchlists())
        guard try await storage.delete(name: name) else { return false }
        try await unpinUnused(before: before)
        didChange()
        return true
    }

    /// Unpins the keys in `before` that no list needs any more.
    private func unpinUnused(before: Set<String>) async throws {
        let now = WatchlistCacheKeys.keys(of: try await storage.watchlists())
        let freed = before.subtracting(now)
        if !freed.isEmpty { try await responses.setPinned(false, keys: freed.sorted()) }
    }
}
