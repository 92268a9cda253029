import Synchronization

/// One read-only connection. Under WAL a reader sees the last committed snapshot and never waits
/// for the writer; the store keeps several so reads run in parallel, and its `ReaderPool` hands
/// each to one read at a time.
///
/// Not an actor: a read is a short synchronous SQLite call, so running it on the calling task's
/// thread saves two executor hops per read (the hot path of every cache hit; see BENCHMARKS.md).
/// The mutex is uncontended but for `close()`, which waits for a read in flight.
/// `@unchecked Sendable`: `connection` is only used while `lock` is held.
final class SQLiteReader: @unchecked Sendable {
    private let connection: SQLiteConnection
    private let lock = Mutex<Void>(())

    /// Opens `path` read-only (`SQLITE_OPEN_READONLY`); the writer must have created it first.
    init(path: String, busyTimeoutMilliseconds: Int32, vfs: String?) throws {
        connection = try SQLiteConnection(path: path, mode: .readOnly, busyTimeoutMilliseconds: busyTimeoutMilliseconds, vfs: vfs)
    }

    /// Runs `body` in a deferred transaction, so all its statements see one snapshot.
    func read<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try lock.withLock { _ throws -> T in
            try connection.transaction(.deferred) { try body(connection) }
        }
    }

    /// Closes the connection.
    func close() {
        lock.withLock { _ in connection.close() }
    }
}
