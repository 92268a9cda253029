import CSQLite

/// One SQLite database connection (one `sqlite3*`), used by exactly one owner at a time.
///
/// Not `Sendable`: an actor (`SQLiteWriter`) or a mutex (`SQLiteReader`) owns each connection, which is what
/// makes `SQLITE_OPEN_NOMUTEX` ("multi-thread" mode: a connection must not be used by two threads
/// at once) safe. Closed by `close()` or, at the latest, in `deinit`.
public final class SQLiteConnection {
    /// How the connection opens its file.
    public enum Mode: Sendable {
        /// Read and write, creating the file if needed.
        case readWrite
        /// Read only; the file must exist.
        case readOnly
    }

    /// The database file path.
    public let path: String
    private var handle: OpaquePointer?
    /// Prepared statements not in use, by SQL, for `prepare` to reuse (finalized on close).
    private var idleStatements: [String: OpaquePointer] = [:]

    /// Opens `path`.
    ///
    /// `sqlite3_open_v2`: "Whether or not an error occurs when it is opened, resources associated with
    /// the database connection handle should be released by passing it to sqlite3_close() when it is no
    /// longer required." Opening is lazy: a file that is not a database fails on the first statement,
    /// which is why we read the schema once here to report `.notADatabase` at open time.
    /// - Parameter vfs: the name of a registered SQLite VFS to open the file with; `nil` for the
    ///   default (tests register one that simulates power cuts).
    public init(path: String, mode: Mode, busyTimeoutMilliseconds: Int32 = 5000, vfs: String? = nil) throws {
        self.path = path
        var flags = SQLITE_OPEN_NOMUTEX
        switch mode {
        case .readWrite: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        }
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, flags, vfs)
        guard code == SQLITE_OK, let opened else {
            let error = SQLiteError.fromCall(code, handle: opened, path: path, action: "open")
            sqlite3_close_v2(opened)
            throw error
        }
        handle = opened
        // "Calling this routine with an argument less than or equal to zero turns off all busy handlers."
        sqlite3_busy_timeout(opened, busyTimeoutMilliseconds)
        // "sqlite3_extended_result_codes() enables or disables the extended result codes feature."
        sqlite3_extended_result_codes(opened, 1)
        do {
            // Forces the header to be read: SQLITE_NOTADB surfaces here, not on a later query.
            _ = try integer("SELECT count(*) FROM sqlite_schema")
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Closes the connection; later calls throw `.closed`. Safe to call twice.
    ///
    /// `sqlite3_close_v2`: "If sqlite3_close_v2() is called with unfinalized prepared statements ...
    /// then the database connection becomes an unusable 'zombie' which will automatically be
    /// deallocated when the last prepared statement is finalized".
    public func close() {
        guard let handle else { return }
        for statement in idleStatements.values { sqlite3_finalize(statement) }
        idleStatements = [:]
        sqlite3_close_v2(handle)
        self.handle = nil
    }

    /// The live handle, or `.closed`.
    func requireHandle() throws -> OpaquePointer {
        guard let handle else {
            throw SQLiteError(reason: .closed, resultCode: SQLITE_MISUSE, message: "the connection to '\(path)' is closed")
        }
        return handle
    }

    /// Prepares `sql` (one statement, `?` placeholders) and binds `values` in order.
    ///
    /// A statement this connection prepared from the same `sql` before and that is no longer in
    /// use is reused (reset, its bindings cleared): the parse is saved for the fixed SQL that
    /// every read and write runs again and again. A statement still in use is not shared: a second
    /// one is prepared meanwhile. At most ``idleStatementLimit`` are kept.
    public func prepare(_ sql: String, _ values: [SQLiteValue] = []) throws -> SQLiteStatement {
        let statement: SQLiteStatement
        if let idle = idleStatements.removeValue(forKey: sql) {
            statement = SQLiteStatement(connection: self, reusing: idle, sql: sql)
        } else {
            let database = try requireHandle()
            var prepared: OpaquePointer?
            let code = sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
            guard code == SQLITE_OK, let prepared else {
                throw SQLiteError.fromCall(code, handle: database, path: path, action: "prepare")
            }
            statement = SQLiteStatement(connection: self, reusing: prepared, sql: sql)
        }
        try statement.bind(values)
        return statement
    }

    /// The most statements kept for reuse. SQL built per call (a list of key prefixes, say) is
    /// kept too; once the limit is reached, an arbitrary kept statement (the table's first) makes
    /// room for the one checked in. The daemon's fixed SQL is well under the limit, so what runs
    /// again and again is checked in again and stays; only SQL beyond it is prepared anew.
    static let idleStatementLimit = 64

    /// How many statements are kept for reuse now.
    var keptStatementCount: Int { idleStatements.count }

    /// Takes back a statement when its owner is done: reset, bindings cleared, kept for the next
    /// `prepare(sql)`; finalized instead once closed or when one is already kept.
    func checkIn(_ statement: OpaquePointer, sql: String) {
        // `sqlite3_reset` returns the last step's error again, already reported; ignored.
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        guard handle != nil, idleStatements[sql] == nil else {
            sqlite3_finalize(statement)
            return
        }
        if idleStatements.count >= Self.idleStatementLimit, let evicted = idleStatements.first {
            idleStatements.removeValue(forKey: evicted.key)
            sqlite3_finalize(evicted.value)
        }
        idleStatements[sql] = statement
    }

    /// Runs one or more statements without parameters (DDL, pragmas, transaction control).
    ///
    /// `sqlite3_exec`: "runs zero or more UTF-8 encoded, semicolon-separate SQL statements".
    public func execute(_ sql: String) throws {
        let handle = try requireHandle()
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else {
            throw SQLiteError.fromCall(code, handle: handle, path: path, action: "execute")
        }
    }

    /// Runs one parameterised statement to completion; returns the number of rows it changed.
    @discardableResult
    public func run(_ sql: String, _ values: [SQLiteValue] = []) throws -> Int {
        let statement = try prepare(sql, values)
        while try statement.step() {}
        return try changes()
    }

    /// The first column of the first row as an integer, or `nil` when there is no row or it is NULL.
    public func integer(_ sql: String, _ values: [SQLiteValue] = []) throws -> Int64? {
        let statement = try prepare(sql, values)
        guard try statement.step(), !statement.isNull(at: 0) else { return nil }
        return statement.int64(at: 0)
    }

    /// The first column of the first row as text, or `nil`.
    public func text(_ sql: String, _ values: [SQLiteValue] = []) throws -> String? {
        let statement = try prepare(sql, values)
        guard try statement.step() else { return nil }
        return statement.text(at: 0)
    }

    /// Rows changed by the most recent INSERT, UPDATE or DELETE (`sqlite3_changes`).
    public func changes() throws -> Int {
        Int(sqlite3_changes(try requireHandle()))
    }

    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    ///
    /// `BEGIN IMMEDIATE` takes the write lock at once (waiting up to `busy_timeout`), so a writer
    /// never fails half-way with `SQLITE_BUSY` on lock upgrade; use `.deferred` for reads.
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        try step(prepare(kind == .immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED"))
        do {
            let result = try body()
            try step(prepare("COMMIT"))
            return result
        } catch {
            // "If the transaction has already been rolled back automatically by the error response,
            // then the ROLLBACK command will fail with an error" — which we ignore for that reason.
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Steps `statement` to completion (transaction control: no rows).
    private func step(_ statement: SQLiteStatement) throws {
        while try statement.step() {}
    }

    /// How a transaction takes its locks (<https://www.sqlite.org/lang_transaction.html>).
    public enum TransactionKind: String, Sendable {
        /// Locks on first read or write; for read-only work.
        case deferred = "DEFERRED"
        /// Takes the write lock immediately; for every write.
        case immediate = "IMMEDIATE"
    }
}
