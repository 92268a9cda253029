import CSQLite
import FoundationEssentials
import Foundation
import Testing
@testable import SQLiteStore

@Suite struct SQLiteConnectionTests {
    @Test func bindsAndReadsEveryStorageClassExactly() async throws {
        try await TemporaryDatabase.with { database in
            let connection = try SQLiteConnection(path: database.path, mode: .readWrite)
            try connection.execute("CREATE TABLE t (i INT, r REAL, s TEXT, b BLOB, e BLOB, n TEXT, z TEXT)")
            let bytes = Data([0, 1, 2, 0, 255, 0])
            try connection.run("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?)", [
                .integer(Int64.max), .real(-1.5), .text("Straße \u{0}end 🎬"), .blob(bytes), .blob(Data()), .null, .text(""),
            ])
            let row = try connection.prepare("SELECT i, r, s, b, e, n, z, typeof(e), typeof(z) FROM t")
            #expect(try row.step())
            #expect(row.int64(at: 0) == Int64.max)
            #expect(row.double(at: 1) == -1.5)
            #expect(row.text(at: 2) == "Straße \u{0}end 🎬")
            #expect(row.blob(at: 3) == bytes)
            #expect(row.blob(at: 4).isEmpty)
            #expect(row.isNull(at: 5))
            #expect(row.text(at: 6) == "")
            #expect(row.text(at: 7) == "blob")
            #expect(row.text(at: 8) == "text")
            #expect(try row.step() == false)
        }
    }

    @Test func refusesAFileThatIsNotADatabaseNamingThePath() async throws {
        try await TemporaryDatabase.with { database in
            try Data(String(repeating: "this is not sqlite\n", count: 100).utf8).write(to: URL(fileURLWithPath: database.path))
            let error = #expect(throws: SQLiteError.self) {
                try SQLiteConnection(path: database.path, mode: .readWrite)
            }
            #expect(error?.reason == .notADatabase)
            #expect(error?.primaryResultCode == SQLITE_NOTADB)
            #expect(error?.message.contains(database.path) == true)
        }
    }

    @Test func errorsNeverContainBoundValues() async throws {
        try await TemporaryDatabase.with { database in
            let connection = try SQLiteConnection(path: database.path, mode: .readWrite)
            try connection.execute("CREATE TABLE t (k TEXT PRIMARY KEY)")
            let secret = "secret-token-value-123"
            try connection.run("INSERT INTO t VALUES (?)", [.text(secret)])
            let error = #expect(throws: SQLiteError.self) {
                try connection.run("INSERT INTO t VALUES (?)", [.text(secret)])
            }
            #expect(error?.primaryResultCode == SQLITE_CONSTRAINT)
            #expect(error.map { "\($0)" }?.contains(secret) == false)
        }
    }

    @Test func transactionRollsBackWhenTheBodyThrows() async throws {
        try await TemporaryDatabase.with { database in
            let connection = try SQLiteConnection(path: database.path, mode: .readWrite)
            try connection.execute("CREATE TABLE t (k INT)")
            struct Abort: Error {}
            #expect(throws: Abort.self) {
                try connection.transaction {
                    try connection.run("INSERT INTO t VALUES (1)")
                    throw Abort()
                }
            }
            #expect(try connection.integer("SELECT count(*) FROM t") == 0)
        }
    }

    @Test func aClosedConnectionThrowsClosed() async throws {
        try await TemporaryDatabase.with { database in
            let connection = try SQLiteConnection(path: database.path, mode: .readWrite)
            connection.close()
            connection.close()
            let error = #expect(throws: SQLiteError.self) { try connection.execute("SELECT 1") }
            #expect(error?.reason == .closed)
        }
    }
}
