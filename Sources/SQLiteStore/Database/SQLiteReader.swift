/// One read-only connection. Under WAL a reader sees the last committed snapshot and never waits
/// for the writer; the store keeps several so reads run in parallel.
actor SQLiteReader {
    private let connection: SQLiteConnection

    /// Opens `path` read-only (`SQLITE_OPEN_READONLY`); the writer must have created it first.
    init(path: String, busyTimeoutMilliseconds: Int32) throws {
        connection = try SQLiteConnection(path: path, mode: .readOnly, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    }

    /// Runs `body` in a deferred transaction, so all its statements see one snapshot.
    func read<T: Sendable>(_ body: @Sendable (SQLiteConnection) throws -> T) throws -> T {
        try connection.transaction(.deferred) { try body(connection) }
    }

    /// Closes the connection.
    func close() {
        connection.close()
    }
}
