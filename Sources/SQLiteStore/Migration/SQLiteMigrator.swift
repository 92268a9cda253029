/// Applies numbered migrations, recording progress in `PRAGMA user_version`.
///
/// "The user_version pragma will get or set the value of the user-version integer at offset 60 in
/// the database header. The user-version is an integer that is available to applications to use
/// however they want. SQLite makes no use of the user-version itself."
/// (<https://www.sqlite.org/pragma.html#pragma_user_version>)
public struct SQLiteMigrator: Sendable {
    /// The migrations, numbered 1...n in order.
    public let migrations: [SQLiteMigration]

    /// Creates a migrator; the versions must be exactly 1, 2, 3... in order.
    public init(migrations: [SQLiteMigration]) throws {
        for (offset, migration) in migrations.enumerated() where migration.version != offset + 1 {
            throw SQLiteError(reason: .invalidMigrations, message: "migration '\(migration.name)' has version \(migration.version), expected \(offset + 1)")
        }
        self.migrations = migrations
    }

    /// The newest schema version this migrator knows.
    public var latestVersion: Int { migrations.last?.version ?? 0 }

    /// The database's recorded schema version.
    public static func userVersion(of connection: SQLiteConnection) throws -> Int {
        Int(try connection.integer("PRAGMA user_version") ?? 0)
    }

    /// Refuses a database whose schema is newer than `latestVersion`, without writing to it.
    public func checkNotNewer(_ connection: SQLiteConnection) throws {
        let version = try Self.userVersion(of: connection)
        guard version <= latestVersion else {
            throw SQLiteError(reason: .schemaTooNew, message: "'\(connection.path)' has schema version \(version), newer than the \(latestVersion) this program knows; upgrade moviesd or use another database (the file was not modified)")
        }
    }

    /// Applies the missing migrations, each in its own `BEGIN IMMEDIATE` transaction that also sets
    /// `user_version`, so a crash leaves the database at a recorded version.
    /// - Returns: the versions applied, in order (empty when already up to date).
    @discardableResult
    public func migrate(_ connection: SQLiteConnection) throws -> [Int] {
        try checkNotNewer(connection)
        var applied: [Int] = []
        for migration in migrations {
            let didApply = try connection.transaction(.immediate) { () throws -> Bool in
                // Re-read under the write lock: another process may have migrated meanwhile.
                let current = try Self.userVersion(of: connection)
                guard current < migration.version else { return false }
                try migration.apply(connection)
                // PRAGMA takes no bound parameters; the version is an Int we produced.
                try connection.execute("PRAGMA user_version = \(migration.version)")
                return true
            }
            if didApply { applied.append(migration.version) }
        }
        return applied
    }
}
