import FoundationEssentials
import MoviesData
import MoviesDomain
import Testing
@testable import SQLiteStore

/// The database reports its changes (issue 41): a writer that knows nothing of the memory, raw SQL
/// through `SQLiteStore.write`, is reflected in the memory after its commit, and a rollback in
/// nothing.
@Suite struct ResponseChangeLogTests {
    static func entry(_ key: String, fetchedAt: Double = 1000) -> StoredResponse {
        StoredResponse(
            key: key, resource: .search, body: Data("{\"k\":\"\(key)\"}".utf8),
            fetchedAt: Date(timeIntervalSince1970: fetchedAt), expiresAt: Date(timeIntervalSince1970: fetchedAt + 600))
    }

    struct Rollback: Error {}

    @Test func aRawWriteThroughTheStoreReachesTheMemoryAfterItsCommitARollbackNothing() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 2)
            let storage = SQLiteResponseStorage(store: store, memory: ResponseMemory(byteBudget: 1 << 20))
            for key in ["search:a", "search:b", "search:untouched"] {
                try await storage.save(Self.entry(key))
                _ = try await storage.response(forKey: key)
                #expect(storage.remembered(forKey: key) != nil, "\(key)")
            }
            let untouched = try #require(storage.remembered(forKey: "search:untouched")).generation

            // A writer that knows nothing of the memory: an UPDATE, a DELETE and an INSERT.
            try await store.write { connection in
                try connection.run("UPDATE responses SET expires_at = 42, etag = '\"new\"' WHERE key = 'search:a'")
                try connection.run("DELETE FROM responses WHERE key = 'search:b'")
                try connection.run("""
                    INSERT INTO responses (key, resource, body, content_type, http_status, fetched_at, expires_at, last_access, size)
                    VALUES ('search:c', 'search', X'7B7D', 'application/json', 200, 5000, 5600, 0, 2)
                    """)
            }
            let updated = try #require(storage.remembered(forKey: "search:a"), "an updated entry stays in memory, updated")
            #expect(updated.response.expiresAt == Date(timeIntervalSince1970: 42))
            #expect(updated.response.etag == "\"new\"")
            #expect(storage.remembered(forKey: "search:b") == nil, "a deleted entry leaves the memory")
            let inserted = try #require(storage.remembered(forKey: "search:c"), "an inserted entry is remembered, as a save's is")
            #expect(inserted.response.fetchedAt == Date(timeIntervalSince1970: 5000) && inserted.response.body == Data("{}".utf8))
            #expect(storage.remembered(forKey: "search:untouched")?.generation == untouched, "an entry the write did not touch is the very same")

            // The same writer, rolled back: the memory learns nothing.
            let before = updated.generation
            await #expect(throws: Rollback.self) {
                try await store.write { connection in
                    try connection.run("UPDATE responses SET expires_at = 99 WHERE key = 'search:a'")
                    try connection.run("DELETE FROM responses WHERE key = 'search:c'")
                    throw Rollback()
                }
            }
            #expect(storage.remembered(forKey: "search:a")?.generation == before)
            #expect(storage.remembered(forKey: "search:a")?.response.expiresAt == Date(timeIntervalSince1970: 42))
            #expect(storage.remembered(forKey: "search:c") != nil)
            #expect(try await SQLiteResponseStorage(store: store).response(forKey: "search:a")?.expiresAt == Date(timeIntervalSince1970: 42))

            // And the next write still reports only its own keys.
            try await store.write { connection in try connection.run("UPDATE responses SET expires_at = 7 WHERE key = 'search:c'") }
            #expect(storage.remembered(forKey: "search:c")?.response.expiresAt == Date(timeIntervalSince1970: 7))
            #expect(storage.remembered(forKey: "search:a")?.generation == before)
            await store.close()
        }
    }

    @Test func writesOfWhatTheMemoryDoesNotHoldTouchNoEntry() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 2)
            let storage = SQLiteResponseStorage(store: store, memory: ResponseMemory(byteBudget: 1 << 20))
            try await storage.save(Self.entry("search:a"))
            let generation = try #require(storage.remembered(forKey: "search:a")).generation
            // Access times and pins are the table's bookkeeping, not the memory's.
            try await store.write { connection in try connection.run("UPDATE responses SET last_access = 123, pinned = 1") }
            storage.recordAccess(forKey: "search:a")
            try await store.flushAccessTimes()
            #expect(storage.remembered(forKey: "search:a")?.generation == generation)
            await store.close()
        }
    }
}
