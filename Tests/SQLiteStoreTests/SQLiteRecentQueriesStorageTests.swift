import FoundationEssentials
import Foundation
import MoviesDomain
import Testing
@testable import SQLiteStore

@Suite struct SQLiteRecentQueriesStorageTests {
    static func withStorage(capacity: Int = 10, _ body: (SQLiteRecentQueriesStorage) async throws -> Void) async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 1)
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
            try await storage.save(Self.query("Matrix"), at: Date(timeIntervalSince1970: 1))
            try await storage.save(Self.query("Alien"), at: Date(timeIntervalSince1970: 2))
            try await storage.save(Self.query("  matrix "), at: Date(timeIntervalSince1970: 3))
            #expect(try await storage.recentQueries(maxCount: 10).map(\.query) == ["matrix", "Alien"])
        }
    }

    @Test func returnsNewestFirstAndHonoursMaxCount() async throws {
        try await Self.withStorage { storage in
            for (offset, text) in ["one", "two", "three"].enumerated() {
                try await storage.save(Self.query(text), at: Date(timeIntervalSince1970: Double(offset)))
            }
            #expect(try await storage.recentQueries(maxCount: 10).map(\.query) == ["three", "two", "one"])
            #expect(try await storage.recentQueries(maxCount: 2).map(\.query) == ["three", "two"])
            #expect(try await storage.recentQueries(maxCount: 0).isEmpty)
        }
    }

    @Test func savesAtTheSameInstantAreOrderedBySaveOrder() async throws {
        try await Self.withStorage { storage in
            let instant = Date(timeIntervalSince1970: 7)
            for text in ["a", "b", "c", "a"] { try await storage.save(Self.query(text), at: instant) }
            #expect(try await storage.recentQueries(maxCount: 10).map(\.query) == ["a", "c", "b"])
        }
    }

    @Test func dropsTheOldestBeyondCapacity() async throws {
        try await Self.withStorage(capacity: 3) { storage in
            for index in 0..<6 {
                try await storage.save(Self.query("q\(index)"), at: Date(timeIntervalSince1970: Double(index)))
            }
            #expect(try await storage.recentQueries(maxCount: 10).map(\.query) == ["q5", "q4", "q3"])
        }
    }

    @Test func defaultCapacityIsTen() async throws {
        try await Self.withStorage { storage in
            #expect(storage.capacity == 10)
            for index in 0..<15 {
                try await storage.save(Self.query("q\(index)"), at: Date(timeIntervalSince1970: Double(index)))
            }
            #expect(try await storage.recentQueries(maxCount: 100).count == 10)
        }
    }
}
