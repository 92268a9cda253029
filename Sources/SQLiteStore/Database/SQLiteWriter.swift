import CSQLite
import MoviesData

/// The single writing connection: every write of the store is serialized through this actor.
///
/// Opening configures the connection and brings the schema up to date:
/// `journal_mode=WAL` ("readers do not block writers and a writer does not block readers"),
/// `synchronous` as the store's `SQLiteDurability` says (FULL: a commit is on disk when it returns;
/// NORMAL: a commit may roll back after a power loss, never corrupt), `foreign_keys=ON`, and
/// `busy_timeout`.
/// See <https://www.sqlite.org/wal.html> and <https://www.sqlite.org/pragma.html>.
///
/// Another process's lock is waited for `busy_timeout` once: after a write found the database
/// locked, later writes try without waiting until one gets the lock (or `probeWriteLock` does), so
/// a lock held for minutes (a backup, an `sqlite3` shell) costs each call no wait at all, and one
/// call never waits twice.
actor SQLiteWriter {
    private let connection: SQLiteConnection
    private let busyTimeoutMilliseconds: Int32
    /// The last write found another process's lock: do not wait for it again.
    private var knownLocked = false
    /// Whether the database has `responses`, whose changes each transaction notes (`ResponseChangeLog`).
    private let logsResponseChanges: Bool

    /// Opens (or creates) the database at `path` and migrates it.
    ///
    /// A database newer than `migrator` knows is refused before anything is written to it, not even
    /// the journal mode.
    init(path: String, migrator: SQLiteMigrator, busyTimeoutMilliseconds: Int32, durability: SQLiteDurability, vfs: String?) throws {
        let connection = try SQLiteConnection(path: path, mode: .readWrite, busyTimeoutMilliseconds: busyTimeoutMilliseconds, vfs: vfs)
        try migrator.checkNotNewer(connection)
        // "The journal_mode pragma returns a string which is the new journal mode."
        let mode = try connection.text("PRAGMA journal_mode = WAL")
        guard mode?.lowercased() == "wal" else {
            throw SQLiteError(reason: .sqlite, message: "'\(path)' could not be switched to WAL mode (journal mode is \(mode ?? "unknown"))")
        }
        try connection.execute(durability.pragma)
        // "This pragma is a no-op within a transaction": set before any BEGIN.
        try connection.execute("PRAGMA foreign_keys = ON")
        try migrator.migrate(connection)
        logsResponseChanges = try ResponseChangeLog.install(on: connection)
        self.connection = connection
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction; commits on return, rolls back on throw.
    /// After a commit, `memory` is told which responses the transaction changed, as SQLite noted
    /// them (`ResponseChangeLog`), before the next transaction begins: in commit order, whoever
    /// wrote them. A rollback tells it nothing.
    func transaction<T: Sendable>(_ body: @Sendable (SQLiteConnection) throws -> T, memory: ResponseMemory?) throws -> T {
        let (result, changes) = try noticingLocks(waiting: !knownLocked) {
            try connection.transaction(.immediate) {
                let result = try body(connection)
                return (result, logsResponseChanges ? try ResponseChangeLog.collect(in: connection, for: memory) : nil)
            }
        }
        if let changes { memory?.committed(changes) }
        return result
    }

    /// An empty `BEGIN IMMEDIATE` transaction, without waiting: throws `SQLITE_BUSY` while another
    /// process holds the write lock; writes nothing.
    func probeWriteLock() throws {
        try noticingLocks(waiting: false) { try connection.transaction(.immediate) { () } }
    }

    /// Runs `operation` with SQLite's busy wait on or off, and remembers whether it met a lock.
    private func noticingLocks<T>(waiting: Bool, _ operation: () throws -> T) throws -> T {
        let handle = try connection.requireHandle()
        if !waiting { sqlite3_busy_timeout(handle, 0) }
        defer { if !waiting { sqlite3_busy_timeout(handle, busyTimeoutMilliseconds) } }
        do {
            let result = try operation()
            knownLocked = false
            return result
        } catch let error as SQLiteError where error.storageFault == .locked {
            knownLocked = true
            throw error
        }
    }

    /// Runs `body` outside a transaction (pragmas such as `wal_checkpoint` must).
    func withConnection<T: Sendable>(_ body: @Sendable (SQLiteConnection) throws -> T) throws -> T {
        try body(connection)
    }

    /// Checkpoints the WAL into the database file and closes the connection.
    ///
    /// `wal_checkpoint(TRUNCATE)`: "blocks until all readers are reading from the database file
    /// only, then ... truncates the log file to zero bytes"; closing the last connection also
    /// checkpoints and deletes the WAL.
    func close() {
        _ = try? connection.text("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.close()
    }
}
