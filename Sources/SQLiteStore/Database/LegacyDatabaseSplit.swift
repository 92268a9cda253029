#if canImport(Glibc)
import Glibc
#endif

/// Moves the user data of a single-file database of moviesd 0.x (schema versions 1 and 2: responses,
/// recent queries and watchlists in `cache.sqlite3`) into a new state database, losing nothing.
///
/// The state database is built under a temporary name, filled from the old file in one
/// transaction (the old file `ATTACH`ed, only read) and renamed into place when complete, so a
/// crash leaves either no state database (the split runs again) or a complete one. The old file
/// keeps its tables until the cache migration `StoreSchema.version3` drops them, which runs only
/// once the state database exists.
enum LegacyDatabaseSplit {
    /// Copies recent queries and watchlists from `legacyPath` to a new database at `statePath`.
    /// - Returns: `true` when data was moved; `false` when there was nothing to do (the state
    ///   database exists, the old file does not, or it has no user tables).
    static func moveUserData(from legacyPath: String, to statePath: String, busyTimeoutMilliseconds: Int32) throws -> Bool {
        guard access(statePath, F_OK) != 0, access(legacyPath, F_OK) == 0 else { return false }
        let legacy = try SQLiteConnection(path: legacyPath, mode: .readOnly, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        let version = try SQLiteMigrator.userVersion(of: legacy)
        let hasRecent = try legacy.integer("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'recent_queries'") ?? 0 > 0
        let hasWatchlists = try legacy.integer("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'watchlists'") ?? 0 > 0
        legacy.close()
        guard (1...2).contains(version), hasRecent || hasWatchlists else { return false }

        let temporary = statePath + ".migrating"
        for leftover in [temporary, temporary + "-journal", temporary + "-wal", temporary + "-shm"] { unlink(leftover) }
        let state = try SQLiteConnection(path: temporary, mode: .readWrite, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        do {
            // The schema the old rows were written for (before owners, version 5): opening the
            // state database then makes them the system's, like those of any older state file.
            try SQLiteMigrator(migrations: Array(StateSchema.migrations.prefix { $0.version < StateSchema.owners.version })).migrate(state)
            // "ATTACH DATABASE expr AS schema-name": the file name is an expression, so it is bound.
            try state.run("ATTACH DATABASE ? AS legacy", [.text(legacyPath)])
            try state.transaction(.immediate) {
                if hasRecent {
                    try state.run("INSERT INTO main.recent_queries (canonical, query, saved_at) SELECT canonical, query, saved_at FROM legacy.recent_queries")
                }
                if hasWatchlists {
                    try state.run("INSERT INTO main.watchlists (name) SELECT name FROM legacy.watchlists")
                    try state.run("""
                        INSERT INTO main.watchlist_queries (watchlist, position, canonical, query, pages)
                        SELECT watchlist, position, canonical, query, pages FROM legacy.watchlist_queries
                        """)
                    try state.run("INSERT INTO main.watchlist_movies (watchlist, position, movie_id) SELECT watchlist, position, movie_id FROM legacy.watchlist_movies")
                }
            }
            try state.execute("DETACH DATABASE legacy")
            state.close()
        } catch {
            state.close()
            unlink(temporary)
            throw error
        }
        guard rename(temporary, statePath) == 0 else {
            let code = errno
            unlink(temporary)
            throw SQLiteError(reason: .sqlite, message: "cannot rename '\(temporary)' to '\(statePath)': \(String(cString: strerror(code)))")
        }
        return true
    }
}
