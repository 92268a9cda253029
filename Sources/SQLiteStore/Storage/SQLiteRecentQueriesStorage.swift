import FoundationEssentials
import MoviesData
import MoviesDomain

/// `RecentQueriesStorage` in SQLite: the `recent_queries` table (state schema version 4), one row
/// per user and canonical query.
public final class SQLiteRecentQueriesStorage: RecentQueriesStorage {
    private let store: SQLiteStore
    /// The most queries kept per user.
    public let capacity: Int

    /// Creates the storage over `store`, keeping at most `capacity` queries per user.
    public init(store: SQLiteStore, capacity: Int = 10) {
        self.store = store
        self.capacity = max(1, capacity)
    }

    /// At most `maxCount` of `user`'s queries, newest first (ties: the later save first).
    public func recentQueries(of user: LocalUser, maxCount: Int) async throws -> [MovieQuery] {
        guard maxCount > 0 else { return [] }
        let texts = try await store.read { connection in
            let statement = try connection.prepare(
                "SELECT query FROM recent_queries WHERE uid = ? ORDER BY saved_at DESC, rowid DESC LIMIT ?", [.int(Int(user.uid)), .int(maxCount)])
            var texts: [String] = []
            while try statement.step() { texts.append(statement.text(at: 0) ?? "") }
            return texts
        }
        return texts.compactMap { MovieQuery($0) }
    }

    /// Saves `query` as `user`'s as of `date`, replacing the one with the same canonical form, and
    /// drops their oldest beyond `capacity`. Delete-then-insert gives the row a fresh (largest)
    /// rowid, which orders saves made at the same instant.
    public func save(_ query: MovieQuery, for user: LocalUser, at date: Date) async throws {
        let capacity = capacity
        let uid = SQLiteValue.int(Int(user.uid))
        try await store.write { connection in
            try connection.run("DELETE FROM recent_queries WHERE uid = ? AND canonical = ?", [uid, .text(query.canonical)])
            try connection.run(
                "INSERT INTO recent_queries (uid, canonical, query, saved_at) VALUES (?, ?, ?, ?)",
                [uid, .text(query.canonical), .text(query.query), .date(date)])
            try connection.run("""
                DELETE FROM recent_queries WHERE uid = ?1 AND rowid NOT IN
                    (SELECT rowid FROM recent_queries WHERE uid = ?1 ORDER BY saved_at DESC, rowid DESC LIMIT ?2)
                """, [uid, .int(capacity)])
        }
    }

    /// Deletes `user`'s queries; returns how many there were.
    public func clear(of user: LocalUser) async throws -> Int {
        try await store.write { connection in
            try connection.run("DELETE FROM recent_queries WHERE uid = ?", [.int(Int(user.uid))])
            return Int(try connection.integer("SELECT changes()") ?? 0)
        }
    }
}
