import FoundationEssentials
import MoviesData
import MoviesDomain

/// `WatchlistStorage` in SQLite: the `watchlists`, `watchlist_queries` and `watchlist_movies`
/// tables (schema version 2). A save replaces the list's rows in one transaction.
public final class SQLiteWatchlistStorage: WatchlistStorage {
    private let store: SQLiteStore

    /// Creates the storage over `store`.
    public init(store: SQLiteStore) {
        self.store = store
    }

    /// Every list by name, with queries and movies in insertion order. Rows that no longer parse
    /// (an empty query) are skipped.
    public func watchlists() async throws -> [Watchlist] {
        try await store.read { connection in
            var lists: [String: Watchlist] = [:]
            let names = try connection.prepare("SELECT name FROM watchlists ORDER BY name")
            var order: [String] = []
            while try names.step() {
                let name = names.text(at: 0) ?? ""
                order.append(name)
                lists[name] = Watchlist(name: name)
            }
            let queries = try connection.prepare("SELECT watchlist, query, pages FROM watchlist_queries ORDER BY watchlist, position")
            while try queries.step() {
                guard let name = queries.text(at: 0), let query = MovieQuery(queries.text(at: 1) ?? ""),
                      let entry = try? WatchlistQuery(query: query, pages: Int(queries.int64(at: 2))) else { continue }
                lists[name]?.queries.append(entry)
            }
            let movies = try connection.prepare("SELECT watchlist, movie_id FROM watchlist_movies ORDER BY watchlist, position")
            while try movies.step() {
                guard let name = movies.text(at: 0) else { continue }
                lists[name]?.movieIDs.append(Int(movies.int64(at: 1)))
            }
            return order.compactMap { lists[$0] }
        }
    }

    /// Inserts or replaces the list with exactly this content.
    public func save(_ watchlist: Watchlist) async throws {
        try await store.write { connection in
            let name = SQLiteValue.text(watchlist.name)
            try connection.run("INSERT OR IGNORE INTO watchlists (name) VALUES (?)", [name])
            try connection.run("DELETE FROM watchlist_queries WHERE watchlist = ?", [name])
            try connection.run("DELETE FROM watchlist_movies WHERE watchlist = ?", [name])
            for (position, entry) in watchlist.queries.enumerated() {
                try connection.run(
                    "INSERT OR REPLACE INTO watchlist_queries (watchlist, position, canonical, query, pages) VALUES (?, ?, ?, ?, ?)",
                    [name, .int(position), .text(entry.query.canonical), .text(entry.query.query), .int(entry.pages)])
            }
            for (position, id) in watchlist.movieIDs.enumerated() {
                try connection.run(
                    "INSERT OR REPLACE INTO watchlist_movies (watchlist, position, movie_id) VALUES (?, ?, ?)",
                    [name, .int(position), .int(id)])
            }
        }
    }

    /// Deletes the list and its entries.
    public func delete(name: String) async throws -> Bool {
        try await store.write { connection in
            try connection.run("DELETE FROM watchlist_queries WHERE watchlist = ?", [.text(name)])
            try connection.run("DELETE FROM watchlist_movies WHERE watchlist = ?", [.text(name)])
            return try connection.run("DELETE FROM watchlists WHERE name = ?", [.text(name)]) > 0
        }
    }
}
