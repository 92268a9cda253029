import CSQLite

/// An error from the SQLite store: a stable reason, the SQLite result code and SQLite's own message.
///
/// The message comes from `sqlite3_errmsg` (or is written by us); it never contains bound values,
/// so cache keys, bodies and credentials cannot leak through an error description.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the operation failed. An open set, so reasons can be added without breaking callers.
    public struct Reason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The stable machine-readable name.
        public let rawValue: String
        /// Creates a reason from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The name.
        public var description: String { rawValue }

        /// A SQLite C call returned an error code.
        public static let sqlite = Reason(rawValue: "sqlite")
        /// The file exists but is not a SQLite database (`SQLITE_NOTADB`).
        public static let notADatabase = Reason(rawValue: "not_a_database")
        /// The database's `user_version` is newer than the migrations this program knows.
        public static let schemaTooNew = Reason(rawValue: "schema_too_new")
        /// The connection or store was already closed.
        public static let closed = Reason(rawValue: "closed")
        /// A programming error in the migration list (not numbered 1, 2, 3...).
        public static let invalidMigrations = Reason(rawValue: "invalid_migrations")
    }

    /// Why the operation failed.
    public var reason: Reason
    /// The (extended) SQLite result code, `SQLITE_ERROR` when the error is ours.
    public var resultCode: Int32
    /// One sentence: SQLite's message plus the database path where known.
    public var message: String

    /// Creates an error.
    public init(reason: Reason, resultCode: Int32 = SQLITE_ERROR, message: String) {
        self.reason = reason
        self.resultCode = resultCode
        self.message = message
    }

    /// The primary result code (the low 8 bits of an extended code).
    public var primaryResultCode: Int32 { resultCode & 0xff }

    /// "SQLite <reason> (code <n>): <message>".
    public var description: String { "SQLite \(reason) (code \(resultCode)): \(message)" }

    /// The error for a failed C call on `handle`.
    ///
    /// `sqlite3_errmsg`: "returns English-language text that describes the error" of the most recent
    /// failed API call on that connection; `sqlite3_errstr` describes a result code when no handle is
    /// available. `SQLITE_NOTADB` becomes `.notADatabase` and names `path`.
    static func fromCall(_ code: Int32, handle: OpaquePointer?, path: String, action: String) -> SQLiteError {
        let sqliteMessage: String
        if let handle, let text = sqlite3_errmsg(handle) {
            sqliteMessage = String(cString: text)
        } else if let text = sqlite3_errstr(code) {
            sqliteMessage = String(cString: text)
        } else {
            sqliteMessage = "unknown error"
        }
        if code & 0xff == SQLITE_NOTADB {
            return SQLiteError(reason: .notADatabase, resultCode: code, message: "'\(path)' is not a SQLite database (\(sqliteMessage)); move it aside or choose another --database path")
        }
        return SQLiteError(reason: .sqlite, resultCode: code, message: "\(action) failed for '\(path)': \(sqliteMessage)")
    }
}
