import FoundationEssentials
import MoviesData
import MoviesDomain

/// `RecentQueriesStorage` in SQLite: the `recent_queries` table, one row per canonical query.
public final class SQLiteRecentQueriesStorage: RecentQueriesStorage {
    private let store: SQLiteStore
    /// The most queries kept.
    public let capacity: Int

    /// Creates the storage over `store`, keeping at most `capacity` queries.
    public init(store: SQLiteStore, capacity: Int = 10) {
        self.store = store
        self.capacity = max(1, capacity)
    }

    /// At most `maxCount` queries, newest first (ties: the later save first).
    public func recentQueries(maxCount: Int) async throws -> [MovieQuery] {
        guard maxCount > 0 else { return [] }
        let texts = try await store.read { connection in
            let statement = try connection.prepare("SELECT query FROM recent_queries ORDER BY saved_at DESC, rowid DESC LIMIT ?", [.int(maxCount)])
            var texts: [String] = []
            while try statement.step() { texts.append(statement.text(at: 0) ?? "") }
            return texts
        }
        return texts.compactMap { MovieQuery($0) }
    }

    /// Saves `query` as of `date`, replacing the one with the same canonical form, and drops the
    /// oldest beyond `capacity`. Delete-then-insert gives the row a fresh (largest) rowid, which
    /// orders saves made at the same instant.
    public func save(_ query: MovieQuery, at date: Date) async throws {
        let capacity = capacity
        try await store.write { connection in
            try connection.run("DELETE FROM recent_queries WHERE canonical = ?", [.text(query.canonical)])
            try connection.run("INSERT INTO recent_queries (canonical, query, saved_at) VALUES (?, ?, ?)", [.text(query.canonical), .text(query.query), .date(date)])
            try connection.run("""
                DELETE FROM recent_queries WHERE rowid NOT IN
                    (SELECT rowid FROM recent_queries ORDER BY saved_at DESC, rowid DESC LIMIT ?)
                """, [.int(capacity)])
        }
    }
}
