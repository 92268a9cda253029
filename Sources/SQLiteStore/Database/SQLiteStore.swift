import MoviesData
import Synchronization

/// The moviesd database: one writer connection (all writes serialized by an actor) and a small pool
/// of read-only connections, so reads run in parallel under WAL and never queue behind the writer.
///
/// The path must name a file (WAL needs one); the database is created and migrated on open.
/// Call `close()` when done: it flushes buffered access times, checkpoints and closes.
public final class SQLiteStore: Sendable {
    /// The database file path.
    public let path: String
    private let writer: SQLiteWriter
    /// Every read-only connection, to close them.
    private let readers: [SQLiteReader]
    /// The idle ones, and the reads waiting for one.
    private let readerPool: ReaderPool<SQLiteReader>
    /// Buffered `last_access` updates, written by `flushAccessTimes()` (an eviction flushes first),
    /// not by every write: 1,000 pages read a second left 30 rows to rewrite in each of 35 page
    /// saves a second.
    let accessTimes = AccessTimeBuffer()
    private let endedWrites = Atomic<UInt64>(0)
    private let externalWrites = Atomic<UInt64>(0)
    /// The writer connection's `PRAGMA data_version` at the last look (`nil` before the first).
    private let dataVersion = Mutex<Int64?>(nil)
    /// Told the outcome of every read and write transaction (`reportOutcomes(to:)`).
    private let outcomeObserver = Mutex<OutcomeObserver?>(nil)
    /// The memory of responses kept in step with the `responses` table (`keepInStep(_:)`).
    private let memory = Mutex<ResponseMemory?>(nil)

    /// Keeps `memory` in step with the `responses` table from now on: after each write
    /// transaction's commit, in commit order, it is told which keys the transaction changed, as
    /// SQLite noted them (`ResponseChangeLog`), and gets their new rows. No writer tells it
    /// anything itself, so a writer cannot forget to. One memory per store; a later call replaces it.
    public func keepInStep(_ memory: ResponseMemory) {
        self.memory.withLock { $0 = memory }
    }

    /// The observer, in a struct: a function type held directly as a `Mutex`'s value is stored
    /// generically, and each `withLock` access wrapped it in one more pair of reabstraction thunks
    /// (read out, written back), so the n-th report ran through n thunks: 75 % of the daemon's
    /// time once reads missed memory, and the refresh's cost per entry grew with
    /// the number of entries. A struct's field keeps its own, fixed representation.
    private struct OutcomeObserver: Sendable {
        let notify: @Sendable (Outcome) -> Void
    }

    /// How a transaction ended, for whoever watches the database's health.
    public enum Outcome: Sendable {
        /// A read transaction succeeded.
        case readSucceeded
        /// A write transaction committed.
        case writeSucceeded
        /// SQLite failed the transaction (a lock, a full disk, damage, I/O).
        case failed(SQLiteError, write: Bool)
    }

    /// Tells `observer` how every later read and write transaction ends (errors that are not
    /// SQLite's, thrown by a transaction's body, are not reported). One observer; a later call
    /// replaces it.
    public func reportOutcomes(to observer: @escaping @Sendable (Outcome) -> Void) {
        outcomeObserver.withLock { $0 = OutcomeObserver(notify: observer) }
    }

    private func report(_ outcome: Outcome) {
        outcomeObserver.withLock { $0 }?.notify(outcome)
    }

    private func report(_ error: any Error, write: Bool) {
        if let error = error as? SQLiteError { report(.failed(error, write: write)) }
    }

    /// The commits by other processes noticed so far (`noticeExternalWrites()`); read without waiting.
    public var externalWriteCount: UInt64 { externalWrites.load(ordering: .acquiring) }

    /// The number of write transactions that have ended (committed or rolled back), counted after
    /// the commit, plus the commits by other processes noticed so far (`noticeExternalWrites()`): a
    /// value read before a read and unchanged later proves nothing was written since — by this
    /// store, and by others up to the last look. An access-time flush (`flushAccessTimes()`) and
    /// the search index's upkeep are not counted (`last_access` and the index are derived from
    /// the stored responses, not part of them).
    public var writeRevision: UInt64 { endedWrites.load(ordering: .acquiring) &+ externalWrites.load(ordering: .acquiring) }

    /// Looks for commits by other processes (the `sqlite3` shell, a restore) and counts them in
    /// `writeRevision`. Asks SQLite's `PRAGMA data_version` on the writer's own connection, whose
    /// value changes only when *another* connection has committed, so this store's writes (its
    /// access-time flushes included) never count. Waits for a write in progress, so call it from
    /// a task of its own (the daemon looks once a second), not on a read's path.
    public func noticeExternalWrites() async {
        guard let version = try? await writer.withConnection({ connection in try connection.integer("PRAGMA data_version") }) ?? nil else { return }
        dataVersion.withLock { previous in
            if let previous, previous != version { externalWrites.add(1, ordering: .releasing) }
            previous = version
        }
    }

    /// Opens (creating if needed) and migrates the database at `path`.
    /// - Parameters:
    ///   - readers: read-only connections in the pool (at least 1).
    ///   - busyTimeoutMilliseconds: how long a connection waits for a lock held by another process.
    /// - Throws: `SQLiteError` `.notADatabase` for a file that is not SQLite, `.schemaTooNew` for a
    ///   database written by a newer moviesd (left untouched), `.sqlite` otherwise.
    public convenience init(path: String, readers: Int = 4, busyTimeoutMilliseconds: Int32 = 5000) throws {
        try self.init(
            path: path, readers: readers, busyTimeoutMilliseconds: busyTimeoutMilliseconds, migrator: SQLiteMigrator(migrations: StoreSchema.singleFileMigrations))
    }

    /// Opens the database at `path` with a custom migration list (tests, future schemas).
    /// - Parameters:
    ///   - durability: whether a commit is on disk when it returns (`.durable`, the default) or
    ///     only consistent after a power cut (`.consistent`).
    ///   - vfs: the registered SQLite VFS to open the file with; `nil` for the default.
    public init(
        path: String, readers: Int = 4, busyTimeoutMilliseconds: Int32 = 5000, migrator: SQLiteMigrator,
        durability: SQLiteDurability = .durable, vfs: String? = nil
    ) throws {
        self.path = path
        writer = try SQLiteWriter(path: path, migrator: migrator, busyTimeoutMilliseconds: busyTimeoutMilliseconds, durability: durability, vfs: vfs)
        let connections = try (0..<max(1, readers)).map { _ in
            try SQLiteReader(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, vfs: vfs)
        }
        self.readers = connections
        readerPool = ReaderPool(connections)
    }

    /// Runs `body` in one write transaction on the writer. Once it is committed, before the next
    /// write transaction begins, the memory kept in step (`keepInStep(_:)`) learns what it changed
    /// in `responses`. Buffered access times stay buffered.
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        defer { endedWrites.add(1, ordering: .releasing) }
        return try await writeCountingNothing(body)
    }

    /// `write(_:)` without counting the transaction in `writeRevision`: only for writes that change
    /// no stored response.
    func writeCountingNothing<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        do {
            let result = try await writer.transaction(body, memory: memory.withLock { $0 })
            report(.writeSucceeded)
            return result
        } catch {
            report(error, write: true)
            throw error
        }
    }

    /// Runs `body` on one of the read-only connections, in a snapshot transaction, on the calling
    /// task's thread. When every connection is busy, the read suspends until one is given back
    /// (first come first served), holding no thread meanwhile.
    /// - Throws: what `body` or SQLite throws; `CancellationError` when the task is cancelled while
    ///   it waits for a connection.
    public func read<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        let reader = try await readerPool.take()
        defer { readerPool.giveBack(reader) }
        do {
            let result = try reader.read(body)
            report(.readSucceeded)
            return result
        } catch {
            report(error, write: false)
            throw error
        }
    }

    /// Whether another process holds the write lock: `BEGIN IMMEDIATE` without waiting, then
    /// `ROLLBACK`; writes nothing. A success is reported as a successful write (it proves a write
    /// would get the lock), so a `locked` fault clears once the other process lets go.
    public func probeWriteLock() async {
        do {
            try await writer.probeWriteLock()
            report(.writeSucceeded)
        } catch {
            report(error, write: true)
        }
    }

    /// Writes buffered last-access times now (kept for the next flush when the write fails).
    public func flushAccessTimes() async throws {
        let accesses = accessTimes.drain()
        do {
            try await writeCountingNothing { connection in try AccessTimeBuffer.apply(accesses, to: connection) }
        } catch {
            accessTimes.restore(accesses)
            throw error
        }
    }

    /// `PRAGMA integrity_check`: "ok" for a sound database, otherwise SQLite's list of problems.
    public func integrityCheck() async throws -> String {
        try await read { connection in
            let statement = try connection.prepare("PRAGMA integrity_check")
            var lines: [String] = []
            while try statement.step() { lines.append(statement.text(at: 0) ?? "") }
            return lines.joined(separator: "\n")
        }
    }

    /// The journal mode in force (`wal` once opened).
    public func journalMode() async throws -> String {
        try await writer.withConnection { connection in try connection.text("PRAGMA journal_mode") ?? "" }
    }

    /// Copies the WAL into the database file as far as readers allow (`wal_checkpoint(PASSIVE)`:
    /// "checkpoint as many frames as possible without waiting for any database readers or
    /// writers to finish"), so that the next writer starts the WAL over (when no reader still
    /// reads from it). For a writer of many
    /// pages (the search index's upkeep): otherwise the next small write to pass SQLite's
    /// 1,000-page threshold pays for copying them.
    func writeOutsideTransaction(_ body: @escaping @Sendable (SQLiteConnection) throws -> Void) async throws {
        try await writer.withConnection(body)
    }

    func checkpoint() async throws {
        try await writer.withConnection { connection in _ = try connection.integer("PRAGMA wal_checkpoint(PASSIVE)") }
    }

    /// Flushes buffered access times, checkpoints the WAL and closes every connection.
    /// Later calls throw `SQLiteError` `.closed`.
    public func close() async {
        try? await flushAccessTimes()
        for reader in readers { reader.close() }
        await writer.close()
    }
}
