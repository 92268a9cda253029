/// One numbered schema change. Version `n` takes a database from `user_version` n-1 to n.
public struct SQLiteMigration: Sendable {
    /// The schema version this migration produces (1, 2, 3...).
    public let version: Int
    /// A short description, for logs.
    public let name: String
    /// Applies the change; runs inside the migrator's transaction.
    public let apply: @Sendable (SQLiteConnection) throws -> Void

    /// Creates a migration.
    public init(version: Int, name: String, apply: @escaping @Sendable (SQLiteConnection) throws -> Void) {
        self.version = version
        self.name = name
        self.apply = apply
    }

    /// A migration made of plain SQL statements.
    public init(version: Int, name: String, sql: String) {
        self.init(version: version, name: name) { connection in try connection.execute(sql) }
    }
}
