import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing
@testable import SQLiteStore

/// Pins have owners and a byte budget per owner (issue 45): pinned in list order while they fit,
/// the first that does not and those after it not; a pin shared by two owners counts against
/// each; each owner's pinned bytes follow saves, purges and unpins (kept by triggers).
@Suite struct SQLiteResponseStoragePinsTests {
    static let alice = Owner.user(LocalUser(uid: 1001))
    static let bob = Owner.user(LocalUser(uid: 1002))

    static func entry(_ key: String, bytes: Int, fetchedAt: Double = 1000) -> StoredResponse {
        StoredResponse(
            key: key, resource: .search, body: Data(repeating: 0x61, count: bytes),
            fetchedAt: Date(timeIntervalSince1970: fetchedAt), expiresAt: Date(timeIntervalSince1970: fetchedAt + 600))
    }

    static func withStorage(_ body: (SQLiteResponseStorage, SQLiteStore) async throws -> Void) async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 2)
            do {
                try await body(SQLiteResponseStorage(store: store), store)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        }
    }

    /// Each owner's pinned bytes as kept (`pinned_bytes`) and as added up from the pins.
    static func pinnedBytes(_ store: SQLiteStore) async throws -> (kept: [Int64: Int64], summed: [Int64: Int64]) {
        try await store.read { connection in
            func table(_ sql: String) throws -> [Int64: Int64] {
                let rows = try connection.prepare(sql)
                var found: [Int64: Int64] = [:]
                while try rows.step() {
                    if rows.int64(at: 1) != 0 { found[rows.int64(at: 0)] = rows.int64(at: 1) }
                }
                return found
            }
            return (
                try table("SELECT owner, bytes FROM pinned_bytes"),
                try table("SELECT owner, sum(size) FROM pins JOIN responses USING (key) GROUP BY owner"))
        }
    }

    @Test func entriesArePinnedInListOrderWhileTheyFitTheOwnersBudget() async throws {
        try await Self.withStorage { storage, _ in
            for (key, bytes) in [("a", 100), ("b", 100), ("c", 10), ("d", 10)] { try await storage.save(Self.entry(key, bytes: bytes)) }
            // 150 bytes: a fits, b does not, and c (which would) comes after it: a prefix is kept.
            let first = try await storage.pin(["a", "missing", "b", "c"], for: Self.alice, within: 150, replacing: false)
            #expect(first == PinResult(pinnedBytes: 100, refused: 2))
            #expect(try await storage.evict(toFit: 0) == 3, "b, c and d were not pinned")
            #expect(try await storage.response(forKey: "a") != nil)
            // Pinned again, a costs nothing more.
            #expect(try await storage.pin(["a"], for: Self.alice, within: 100, replacing: false) == PinResult(pinnedBytes: 100, refused: 0))
        }
    }

    @Test func anEntryOnTwoOwnersListsCountsAgainstEachAndStaysPinnedUntilBothLetGo() async throws {
        try await Self.withStorage { storage, store in
            try await storage.save(Self.entry("shared", bytes: 100))
            try await storage.save(Self.entry("bobs", bytes: 50))
            #expect(try await storage.pin(["shared"], for: Self.alice, within: 100, replacing: false).refused == 0)
            #expect(try await storage.pin(["shared", "bobs"], for: Self.bob, within: 120, replacing: false) == PinResult(pinnedBytes: 100, refused: 1))
            #expect(try await Self.pinnedBytes(store).kept == [1001: 100, 1002: 100])
            try await storage.unpin(["shared"], for: Self.alice)
            #expect(try await storage.evict(toFit: 0) == 1, "bob still pins it")
            #expect(try await storage.response(forKey: "shared") != nil)
            try await storage.unpin(["shared"], for: Self.bob)
            #expect(try await storage.evict(toFit: 0) == 1)
            #expect(try await Self.pinnedBytes(store).kept.isEmpty)
        }
    }

    @Test func replacingPinsExactlyTheFirstEntriesThatFitAndLetsGoOfTheRest() async throws {
        try await Self.withStorage { storage, store in
            for key in ["a", "b", "c"] { try await storage.save(Self.entry(key, bytes: 100)) }
            _ = try await storage.pin(["a", "b", "c"], for: Self.alice, within: 1000, replacing: false)
            // The list is now c, b (a left it) and the budget 150: c alone is kept.
            #expect(try await storage.pin(["c", "b"], for: Self.alice, within: 150, replacing: true) == PinResult(pinnedBytes: 100, refused: 1))
            #expect(try await storage.evict(toFit: 0) == 2)
            #expect(try await storage.response(forKey: "c") != nil)
            #expect(try await Self.pinnedBytes(store).kept == [1001: 100])
        }
    }

    @Test func eachOwnersPinnedBytesFollowSavesPurgesAndUnpins() async throws {
        try await Self.withStorage { storage, store in
            for key in ["search:a", "search:b", "movie:1"] { try await storage.save(Self.entry(key, bytes: 100)) }
            _ = try await storage.pin(["search:a", "search:b", "movie:1"], for: Self.alice, within: .max, replacing: false)
            _ = try await storage.pin(["search:a"], for: Self.bob, within: .max, replacing: false)
            _ = try await storage.pin(["movie:1"], for: .system, within: .max, replacing: false)
            #expect(try await Self.pinnedBytes(store).kept == [1001: 300, 1002: 100, -1: 100])
            try await storage.save(Self.entry("search:a", bytes: 250, fetchedAt: 2000))  // a pinned entry grows
            var bytes = try await Self.pinnedBytes(store)
            #expect(bytes.kept == [1001: 450, 1002: 250, -1: 100])
            #expect(bytes.kept == bytes.summed)
            _ = try await storage.purge(keyPrefixes: ["search:a"])
            try await storage.unpin(["movie:1"], for: .system)
            bytes = try await Self.pinnedBytes(store)
            #expect(bytes.kept == [1001: 200])
            #expect(bytes.kept == bytes.summed)
            #expect(try await storage.statistics(now: Date(), byteBudget: 0).pinnedBytes == 200)
        }
    }

    @Test func statisticsCountOnlyThePinsOfTheOwnersAsked() async throws {
        try await Self.withStorage { storage, _ in
            for key in ["search:a", "search:b", "movie:1"] { try await storage.save(Self.entry(key, bytes: 100)) }
            _ = try await storage.pin(["search:a", "search:b"], for: Self.alice, within: .max, replacing: false)
            _ = try await storage.pin(["movie:1"], for: .system, within: .max, replacing: false)
            let everyone = try await storage.statistics(now: Date(), byteBudget: 0, pinsOf: nil)
            let bob = try await storage.statistics(now: Date(), byteBudget: 0, pinsOf: [.system, Self.bob])
            let nobody = try await storage.statistics(now: Date(), byteBudget: 0, pinsOf: [])
            #expect(everyone.pinnedEntries == 3)
            #expect(bob.pinnedEntries == 1 && bob.pinnedBytes == 100, "alice's private pins are not bob's to count")
            #expect(nobody.pinnedEntries == 0)
            #expect(bob.entries == everyone.entries, "the cache itself is shared")
        }
    }

    @Test func thePinsOfBeforeBecomeTheSystems() async throws {
        try await TemporaryDatabase.with { database in
            let before = try SQLiteMigrator(migrations: Array(StoreSchema.singleFileMigrations.prefix(9)))
            let old = try SQLiteStore(path: database.path, readers: 1, migrator: before)
            try await SQLiteResponseStorage(store: old).save(Self.entry("kept", bytes: 100))
            try await SQLiteResponseStorage(store: old).save(Self.entry("loose", bytes: 100))
            try await old.write { connection in try connection.run("UPDATE responses SET pinned = 1 WHERE key = 'kept'") }
            await old.close()
            let store = try SQLiteStore(path: database.path, readers: 1)
            let storage = SQLiteResponseStorage(store: store)
            #expect(try await Self.pinnedBytes(store).kept == [-1: 100])
            #expect(try await storage.evict(toFit: 0) == 1)
            #expect(try await storage.response(forKey: "kept") != nil)
            await store.close()
        }
    }
}
