import CSQLite
import FoundationEssentials

/// A prepared statement, handed out by its connection (`SQLiteConnection.prepare`) and handed back
/// to it in `deinit`, reset, for the next use of the same SQL.
///
/// Not `Sendable`; it belongs to its connection's owner. Keeps its connection alive.
public final class SQLiteStatement {
    private let connection: SQLiteConnection
    private let handle: OpaquePointer
    /// The SQL under which the connection keeps this statement for reuse.
    private let sql: String

    /// Wraps `handle`, prepared from `sql` by `connection`.
    init(connection: SQLiteConnection, reusing handle: OpaquePointer, sql: String) {
        self.connection = connection
        self.handle = handle
        self.sql = sql
    }

    deinit {
        connection.checkIn(handle, sql: sql)
    }

    /// Binds `values` to parameters 1...n.
    ///
    /// Text and blobs are bound with an explicit byte count and `SQLITE_TRANSIENT`: "SQLite makes
    /// its own private copy of the data immediately, before the sqlite3_bind_*() routine returns".
    public func bind(_ values: [SQLiteValue]) throws {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null:
                code = sqlite3_bind_null(handle, index)
            case .integer(let integer):
                code = sqlite3_bind_int64(handle, index, integer)
            case .real(let real):
                code = sqlite3_bind_double(handle, index, real)
            case .text(let text):
                // `withCString` always yields a non-NULL pointer, so "" stays an empty string, not NULL.
                let byteCount = sqlite3_uint64(text.utf8.count)
                code = text.withCString { characters in
                    sqlite3_bind_text64(handle, index, characters, byteCount, Self.transient, UInt8(SQLITE_UTF8))
                }
            case .blob(let data):
                // "If the third parameter to sqlite3_bind_blob() is a NULL pointer then the fourth
                // parameter is ignored and the end result is the same as sqlite3_bind_null()":
                // an empty body must stay an empty blob, hence zeroblob(0).
                if data.isEmpty {
                    code = sqlite3_bind_zeroblob(handle, index, 0)
                } else {
                    code = data.withUnsafeBytes { bytes in
                        sqlite3_bind_blob64(handle, index, bytes.baseAddress, sqlite3_uint64(bytes.count), Self.transient)
                    }
                }
            }
            guard code == SQLITE_OK else {
                throw SQLiteError.fromCall(code, handle: sqlite3_db_handle(handle), path: connection.path, action: "bind parameter \(index)")
            }
        }
    }

    /// Advances to the next row: `true` when a row is available, `false` when done.
    ///
    /// `sqlite3_step`: returns `SQLITE_ROW` "each time a new row of data is ready", `SQLITE_DONE`
    /// when "the statement has finished executing successfully"; any other code is an error.
    public func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            throw SQLiteError.fromCall(code, handle: sqlite3_db_handle(handle), path: connection.path, action: "step")
        }
    }

    /// Whether column `index` (0-based) of the current row is NULL.
    public func isNull(at index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    /// Column `index` as a 64-bit integer (0 for NULL).
    public func int64(at index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// Column `index` as a double (0.0 for NULL).
    public func double(at index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// Column `index` as text, or `nil` for NULL.
    ///
    /// `sqlite3_column_text` then `sqlite3_column_bytes`: "call sqlite3_column_text() first to
    /// force the result into the desired format, then invoke sqlite3_column_bytes() to find the size".
    public func text(at index: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Column `index` as bytes, exactly as stored; empty for an empty blob or NULL.
    public func blob(at index: Int32) -> Data {
        guard let bytes = sqlite3_column_blob(handle, index) else { return Data() }
        let count = Int(sqlite3_column_bytes(handle, index))
        return Data(bytes: bytes, count: count)
    }

    /// `SQLITE_TRANSIENT`, which the C macro defines as `((sqlite3_destructor_type)-1)`.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
}
