import FoundationEssentials
import MoviesData
import MoviesDomain

/// `WatchlistStorage` in SQLite: the `watchlists`, `watchlist_queries` and `watchlist_movies`
/// tables (state schema version 5: each row its owner's). A save replaces the list's rows in one
/// transaction.
public final class SQLiteWatchlistStorage: WatchlistStorage {
    private let store: SQLiteStore

    /// Creates the storage over `store`.
    public init(store: SQLiteStore) {
        self.store = store
    }

    /// Every list of every owner (the system's first, then by uid), by name, with queries and
    /// movies in insertion order. Rows that no longer parse (an empty query) are skipped.
    public func watchlists() async throws -> [Watchlist] {
        try await lists(owners: nil)
    }

    /// The lists of `owners` alone, in the same order; each table is read by its primary key's
    /// first column, so the time taken depends on these owners' rows, not on everyone's.
    public func watchlists(of owners: Set<Owner>) async throws -> [Watchlist] {
        guard !owners.isEmpty else { return [] }
        return try await lists(owners: owners.map(\.storedID).sorted())
    }

    /// The lists of the owners with these stored ids (`nil`: every owner).
    private func lists(owners: [Int64]?) async throws -> [Watchlist] {
        let filter = owners.map { "WHERE owner IN (" + Array(repeating: "?", count: $0.count).joined(separator: ", ") + ") " } ?? ""
        let values = (owners ?? []).map(SQLiteValue.integer)
        return try await store.read { connection in
            struct Key: Hashable { let owner: Int64, name: String }
            var lists: [Key: Watchlist] = [:]
            var order: [Key] = []
            let names = try connection.prepare("SELECT owner, name FROM watchlists \(filter)ORDER BY owner, name", values)
            while try names.step() {
                guard let owner = Owner(storedID: names.int64(at: 0)) else { continue }
                let key = Key(owner: names.int64(at: 0), name: names.text(at: 1) ?? "")
                order.append(key)
                lists[key] = Watchlist(name: key.name, owner: owner)
            }
            let queries = try connection.prepare("SELECT owner, watchlist, query, pages FROM watchlist_queries \(filter)ORDER BY owner, watchlist, position", values)
            while try queries.step() {
                guard let name = queries.text(at: 1), let query = MovieQuery(queries.text(at: 2) ?? ""),
                      let entry = try? WatchlistQuery(query: query, pages: Int(queries.int64(at: 3))) else { continue }
                lists[Key(owner: queries.int64(at: 0), name: name)]?.queries.append(entry)
            }
            let movies = try connection.prepare("SELECT owner, watchlist, movie_id FROM watchlist_movies \(filter)ORDER BY owner, watchlist, position", values)
            while try movies.step() {
                guard let name = movies.text(at: 1) else { continue }
                lists[Key(owner: movies.int64(at: 0), name: name)]?.movieIDs.append(Int(movies.int64(at: 2)))
            }
            return order.compactMap { lists[$0] }
        }
    }

    /// Inserts or replaces the list `watchlist.name` of `watchlist.owner` with exactly this content.
    public func save(_ watchlist: Watchlist) async throws {
        try await store.write { connection in
            let (owner, name) = (watchlist.owner.storedValue, SQLiteValue.text(watchlist.name))
            try connection.run("INSERT OR IGNORE INTO watchlists (owner, name) VALUES (?, ?)", [owner, name])
            try connection.run("DELETE FROM watchlist_queries WHERE owner = ? AND watchlist = ?", [owner, name])
            try connection.run("DELETE FROM watchlist_movies WHERE owner = ? AND watchlist = ?", [owner, name])
            for (position, entry) in watchlist.queries.enumerated() {
                try connection.run(
                    "INSERT OR REPLACE INTO watchlist_queries (owner, watchlist, position, canonical, query, pages) VALUES (?, ?, ?, ?, ?, ?)",
                    [owner, name, .int(position), .text(entry.query.canonical), .text(entry.query.query), .int(entry.pages)])
            }
            for (position, id) in watchlist.movieIDs.enumerated() {
                try connection.run(
                    "INSERT OR REPLACE INTO watchlist_movies (owner, watchlist, position, movie_id) VALUES (?, ?, ?, ?)",
                    [owner, name, .int(position), .int(id)])
            }
        }
    }

    /// Deletes `owner`'s list `name` and its entries.
    public func delete(name: String, owner: Owner) async throws -> Bool {
        try await store.write { connection in
            let key: [SQLiteValue] = [owner.storedValue, .text(name)]
            try connection.run("DELETE FROM watchlist_queries WHERE owner = ? AND watchlist = ?", key)
            try connection.run("DELETE FROM watchlist_movies WHERE owner = ? AND watchlist = ?", key)
            return try connection.run("DELETE FROM watchlists WHERE owner = ? AND name = ?", key) > 0
        }
    }
}
