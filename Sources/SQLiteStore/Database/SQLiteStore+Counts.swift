/// Counts the daemon's metrics read when they are asked for (each one query on a pooled reader).
extension SQLiteStore {
    /// The local search index of the cache database: movies indexed (a row per movie and
    /// language) and stored responses queued to be indexed.
    public func movieIndexCounts() async throws -> (rows: Int, queued: Int) {
        try await read { connection in
            let rows = try connection.integer("SELECT count(*) FROM movie_text") ?? 0
            let queued = try connection.integer("SELECT count(*) FROM movie_index_queue") ?? 0
            return (Int(rows), Int(queued))
        }
    }

    /// The TMDB accounts' outbox entries of the state database, every owner's together, by state
    /// (`pending`, `delivered`, `rejected`): counts only, no owner.
    public func outboxCounts() async throws -> [String: Int] {
        try await read { connection in
            let rows = try connection.prepare("SELECT state, count(*) FROM account_outbox GROUP BY state")
            var counts: [String: Int] = [:]
            while try rows.step() {
                if let state = rows.text(at: 0) { counts[state] = Int(rows.int64(at: 1)) }
            }
            return counts
        }
    }
}
