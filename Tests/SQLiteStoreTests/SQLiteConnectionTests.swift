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

    @Test func aReusedStatementIsResetAndReboundForEachUse() async throws {
        try await TemporaryDatabase.with { database in
            let connection = try SQLiteConnection(path: database.path, mode: .readWrite)
            try connection.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v INT)")
            try connection.run("INSERT INTO t VALUES ('a', 1), ('b', 2)")
            for (key, value) in [("a", Int64(1)), ("b", 2), ("a", 1)] {
                let row = try connection.prepare("SELECT v FROM t WHERE k = ?", [.text(key)])
                #expect(try row.step())
                #expect(row.int64(at: 0) == value)
            }
            let missing = try connection.prepare("SELECT v FROM t WHERE k = ?", [.text("zzz")])
            #expect(try missing.step() == false)
        }
    }

    @Test func statementsKeptForReuseStayWithinTheLimitAndWork() async throws {
        try await TemporaryDatabase.with { database in
            let connection = try SQLiteConnection(path: database.path, mode: .readWrite)
            try connection.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v INT)")
            for value in 0..<(SQLiteConnection.idleStatementLimit * 2) {
                try connection.run("INSERT INTO t VALUES ('k\(value)', \(value))")
                #expect(connection.keptStatementCount <= SQLiteConnection.idleStatementLimit)
            }
            #expect(connection.keptStatementCount == SQLiteConnection.idleStatementLimit)
            #expect(try connection.integer("SELECT count(*) FROM t") == Int64(SQLiteConnection.idleStatementLimit * 2))
            #expect(try connection.integer("SELECT v FROM t WHERE k = ?", [.text("k3")]) == 3)
            #expect(try connection.integer("SELECT v FROM t WHERE k = ?", [.text("k5")]) == 5)
            connection.close()
            #expect(connection.keptStatementCount == 0)
        }
    }

    @Test func aReusedStatementStillInUseIsNotShared() async throws {
        try await TemporaryDatabase.with { database in
            let connection = try SQLiteConnection(path: database.path, mode: .readWrite)
            try connection.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v INT)")
            try connection.run("INSERT INTO t VALUES ('a', 1), ('b', 2)")
            let first = try connection.prepare("SELECT v FROM t WHERE k = ?", [.text("a")])
            let second = try connection.prepare("SELECT v FROM t WHERE k = ?", [.text("b")])
            #expect(try first.step())
            #expect(try second.step())
            #expect(first.int64(at: 0) == 1)
            #expect(second.int64(at: 0) == 2)
        }
    }

    @Test func transactionsStillCommitAndRollBackWithReusedControlStatements() async throws {
        try await TemporaryDatabase.with { database in
            let connection = try SQLiteConnection(path: database.path, mode: .readWrite)
            try connection.execute("CREATE TABLE t (v INT)")
            for value in 1...3 {
                _ = try connection.transaction { try connection.run("INSERT INTO t VALUES (?)", [.integer(Int64(value))]) }
            }
            struct Abort: Error {}
            #expect(throws: Abort.self) {
                try connection.transaction { () throws -> Void in
                    try connection.run("INSERT INTO t VALUES (99)")
                    throw Abort()
                }
            }
            let total = try connection.transaction(.deferred) { try connection.integer("SELECT sum(v) FROM t") }
            #expect(total == 6)
        }
    }

    @Test func reusingAfterCloseFailsAsClosed() async throws {
        try await TemporaryDatabase.with { database in
            let connection = try SQLiteConnection(path: database.path, mode: .readWrite)
            do {
                let row = try connection.prepare("SELECT 1")
                #expect(try row.step())
            }
            connection.close()
            let error = #expect(throws: SQLiteError.self) { try connection.prepare("SELECT 1") }
            #expect(error?.reason == .closed)
        }
    }
}
