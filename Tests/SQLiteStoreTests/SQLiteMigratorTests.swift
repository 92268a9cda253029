import FoundationEssentials
import Foundation
import Testing
@testable import SQLiteStore

@Suite struct SQLiteMigratorTests {
    /// A second, test-only migration on top of the real schema.
    static let version2 = SQLiteMigration(version: 2, name: "test column", sql: "ALTER TABLE recent_queries ADD COLUMN source TEXT")

    @Test func migratesAFreshDatabaseToTheLatestVersion() async throws {
        try await TemporaryDatabase.with { database in
            let connection = try SQLiteConnection(path: database.path, mode: .readWrite)
            let migrator = try SQLiteMigrator(migrations: [StoreSchema.version1, Self.version2])
            #expect(try migrator.migrate(connection) == [1, 2])
            #expect(try SQLiteMigrator.userVersion(of: connection) == 2)
            #expect(try migrator.migrate(connection) == [])
            try connection.run("INSERT INTO recent_queries (canonical, query, saved_at, source) VALUES ('a', 'A', 1, 'x')")
        }
    }

    @Test func appliesOnlyTheMissingMigrationsToAnOlderDatabase() async throws {
        try await TemporaryDatabase.with { database in
            // A version-1 database made by hand, with data in it.
            let handMade = try SQLiteConnection(path: database.path, mode: .readWrite)
            try StoreSchema.version1.apply(handMade)
            try handMade.execute("PRAGMA user_version = 1")
            try handMade.run("INSERT INTO recent_queries (canonical, query, saved_at) VALUES ('matrix', 'Matrix', 5)")
            handMade.close()

            let connection = try SQLiteConnection(path: database.path, mode: .readWrite)
            // Re-running version 1 would fail with "table responses already exists".
            let applied = try SQLiteMigrator(migrations: [StoreSchema.version1, Self.version2]).migrate(connection)
            #expect(applied == [2])
            #expect(try connection.text("SELECT query FROM recent_queries") == "Matrix")
            #expect(try connection.integer("SELECT count(*) FROM pragma_table_info('recent_queries') WHERE name = 'source'") == 1)
        }
    }

    @Test func refusesANewerDatabaseWithoutTouchingIt() async throws {
        try await TemporaryDatabase.with { database in
            let handMade = try SQLiteConnection(path: database.path, mode: .readWrite)
            try handMade.execute("CREATE TABLE future (x INT); PRAGMA user_version = 99")
            handMade.close()
            let before = try Data(contentsOf: URL(fileURLWithPath: database.path))

            let error = #expect(throws: SQLiteError.self) {
                try SQLiteStore(path: database.path)
            }
            #expect(error?.reason == .schemaTooNew)
            #expect(error?.message.contains("99") == true)
            #expect(error?.message.contains(database.path) == true)
            #expect(try Data(contentsOf: URL(fileURLWithPath: database.path)) == before)
            #expect(!FileManager.default.fileExists(atPath: database.path + "-wal"))
        }
    }

    @Test func aFailingMigrationLeavesTheVersionUnchanged() async throws {
        try await TemporaryDatabase.with { database in
            let connection = try SQLiteConnection(path: database.path, mode: .readWrite)
            let broken = SQLiteMigration(version: 2, name: "broken", sql: "CREATE TABLE half (x INT); SELECT * FROM missing_table")
            #expect(throws: SQLiteError.self) {
                try SQLiteMigrator(migrations: [StoreSchema.version1, broken]).migrate(connection)
            }
            #expect(try SQLiteMigrator.userVersion(of: connection) == 1)
            #expect(try connection.integer("SELECT count(*) FROM sqlite_schema WHERE name = 'half'") == 0)
        }
    }

    @Test func rejectsMigrationsThatAreNotNumberedInOrder() {
        let error = #expect(throws: SQLiteError.self) {
            try SQLiteMigrator(migrations: [Self.version2])
        }
        #expect(error?.reason == .invalidMigrations)
    }
}

@Suite struct WatchlistMigrationTests {
    @Test func upgradesAVersionOneDatabaseWithWatchlistTablesKeepingItsData() async throws {
        try await TemporaryDatabase.with { database in
            let handMade = try SQLiteConnection(path: database.path, mode: .readWrite)
            try StoreSchema.version1.apply(handMade)
            try handMade.execute("PRAGMA user_version = 1")
            try handMade.run("INSERT INTO recent_queries (canonical, query, saved_at) VALUES ('heat', 'Heat', 5)")
            handMade.close()
            let connection = try SQLiteConnection(path: database.path, mode: .readWrite)
            #expect(try SQLiteMigrator(migrations: StoreSchema.migrations).migrate(connection) == [2])
            #expect(try connection.text("SELECT query FROM recent_queries") == "Heat")
            #expect(try connection.integer("SELECT count(*) FROM sqlite_schema WHERE name IN ('watchlists', 'watchlist_queries', 'watchlist_movies')") == 3)
        }
    }
}
