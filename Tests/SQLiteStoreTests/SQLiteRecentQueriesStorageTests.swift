import FoundationEssentials
import Foundation
import MoviesDomain
import Testing
@testable import SQLiteStore

@Suite struct SQLiteRecentQueriesStorageTests {
    static func withStorage(capacity: Int = 10, _ body: (SQLiteRecentQueriesStorage) async throws -> Void) async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 1, migrator: SQLiteMigrator(migrations: StateSchema.migrations))
            do { try await body(SQLiteRecentQueriesStorage(store: store, capacity: capacity)) } catch {
                await store.close()
                throw error
            }
            await store.close()
        }
    }

    static func query(_ text: String) throws -> MovieQuery { try #require(MovieQuery(text)) }

    @Test func deduplicatesOnTheCanonicalFormKeepingTheNewestSpelling() async throws {
        try await Self.withStorage { storage in
            try await storage.save(Self.query("Matrix"), for: .root, at: Date(timeIntervalSince1970: 1))
            try await storage.save(Self.query("Alien"), for: .root, at: Date(timeIntervalSince1970: 2))
            try await storage.save(Self.query("  matrix "), for: .root, at: Date(timeIntervalSince1970: 3))
            #expect(try await storage.recentQueries(of: .root, maxCount: 10).map(\.query) == ["matrix", "Alien"])
        }
    }

    @Test func returnsNewestFirstAndHonoursMaxCount() async throws {
        try await Self.withStorage { storage in
            for (offset, text) in ["one", "two", "three"].enumerated() {
                try await storage.save(Self.query(text), for: .root, at: Date(timeIntervalSince1970: Double(offset)))
            }
            #expect(try await storage.recentQueries(of: .root, maxCount: 10).map(\.query) == ["three", "two", "one"])
            #expect(try await storage.recentQueries(of: .root, maxCount: 2).map(\.query) == ["three", "two"])
            #expect(try await storage.recentQueries(of: .root, maxCount: 0).isEmpty)
        }
    }

    @Test func savesAtTheSameInstantAreOrderedBySaveOrder() async throws {
        try await Self.withStorage { storage in
            let instant = Date(timeIntervalSince1970: 7)
            for text in ["a", "b", "c", "a"] { try await storage.save(Self.query(text), for: .root, at: instant) }
            #expect(try await storage.recentQueries(of: .root, maxCount: 10).map(\.query) == ["a", "c", "b"])
        }
    }

    @Test func dropsTheOldestBeyondCapacity() async throws {
        try await Self.withStorage(capacity: 3) { storage in
            for index in 0..<6 {
                try await storage.save(Self.query("q\(index)"), for: .root, at: Date(timeIntervalSince1970: Double(index)))
            }
            #expect(try await storage.recentQueries(of: .root, maxCount: 10).map(\.query) == ["q5", "q4", "q3"])
        }
    }

    @Test func defaultCapacityIsTen() async throws {
        try await Self.withStorage { storage in
            #expect(storage.capacity == 10)
            for index in 0..<15 {
                try await storage.save(Self.query("q\(index)"), for: .root, at: Date(timeIntervalSince1970: Double(index)))
            }
            #expect(try await storage.recentQueries(of: .root, maxCount: 100).count == 10)
        }
    }

    @Test func eachUserHasTheirOwnListCapAndClear() async throws {
        try await Self.withStorage(capacity: 2) { storage in
            let alice = LocalUser(uid: 1000), bob = LocalUser(uid: 1001)
            for (index, text) in ["a1", "a2", "a3"].enumerated() { try await storage.save(Self.query(text), for: alice, at: Date(timeIntervalSince1970: Double(index))) }
            try await storage.save(Self.query("b1"), for: bob, at: Date(timeIntervalSince1970: 9))
            try await storage.save(Self.query("a1"), for: bob, at: Date(timeIntervalSince1970: 10))
            #expect(try await storage.recentQueries(of: alice, maxCount: 10).map(\.query) == ["a3", "a2"], "capped per user")
            #expect(try await storage.recentQueries(of: bob, maxCount: 10).map(\.query) == ["a1", "b1"], "the same query is each one's own")
            #expect(try await storage.recentQueries(of: .root, maxCount: 10).isEmpty)
            #expect(try await storage.clear(of: alice) == 2)
            #expect(try await storage.recentQueries(of: alice, maxCount: 10).isEmpty)
            #expect(try await storage.recentQueries(of: bob, maxCount: 10).count == 2)
        }
    }

    @Test func theSharedListOfBeforeBecomesRootsOwn() async throws {
        try await TemporaryDatabase.with { database in
            let old = try SQLiteStore(path: database.path, readers: 1, migrator: SQLiteMigrator(migrations: Array(StateSchema.migrations.prefix(3))))
            try await old.write { connection in
                try connection.run("INSERT INTO recent_queries (canonical, query, saved_at) VALUES ('matrix', 'The Matrix', 5)")
            }
            await old.close()
            let store = try SQLiteStore(path: database.path, readers: 1, migrator: SQLiteMigrator(migrations: StateSchema.migrations))
            let storage = SQLiteRecentQueriesStorage(store: store)
            #expect(try await storage.recentQueries(of: .root, maxCount: 10).map(\.query) == ["The Matrix"])
            #expect(try await storage.recentQueries(of: LocalUser(uid: 1000), maxCount: 10).isEmpty)
            await store.close()
        }
    }
}
