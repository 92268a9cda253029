import FoundationEssentials
import Foundation
import MoviesData
import MoviesDomain
import MoviesTestSupport
import MoviesWire
import Testing
@testable import SQLiteStore

@Suite struct SQLiteResponseStorageTests {
    static func entry(_ key: String, body: String = "{}", fetchedAt: Double = 1000, maxAge: Double = 600, resource: ResourceClass = .search) -> StoredResponse {
        StoredResponse(key: key, resource: resource, body: Data(body.utf8), fetchedAt: Date(timeIntervalSince1970: fetchedAt), expiresAt: Date(timeIntervalSince1970: fetchedAt + maxAge))
    }

    /// Opens a store in a temporary directory and hands `body` its response storage.
    static func withStorage(clock: TestClock = TestClock(), accessFlushThreshold: Int = 256, _ body: (SQLiteResponseStorage, SQLiteStore) async throws -> Void) async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 2)
            do {
                try await body(SQLiteResponseStorage(store: store, accessFlushThreshold: accessFlushThreshold, clock: clock.now), store)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        }
    }

    static let orderedPage = """
        {"page":1,"total_pages":3,"total_results":41,"results":[
        {"id":603,"title":"The Matrix","release_date":"1999-03-31"},
        {"id":9,"title":"Nine","release_date":""},
        {"id":604,"title":"The Matrix Reloaded","overview":"Ünïcödé ✓","poster_path":null},
        {"id":1,"title":"One"}]}
        """

    @Test func roundTripsABodyByteForByteKeepingResultOrder() async throws {
        try await Self.withStorage { storage, _ in
            var saved = Self.entry("search:matrix:1", body: Self.orderedPage)
            saved.etag = "\"abc\""
            saved.lastModified = "Tue, 01 Jan 2026 00:00:00 GMT"
            saved.httpStatus = 200
            let didSave = try await storage.save(saved)
            #expect(didSave)
            let loaded = try #require(try await storage.response(forKey: "search:matrix:1"))
            #expect(loaded == saved)
            #expect(loaded.body == Data(Self.orderedPage.utf8))
            #expect(try MoviesResponseDTO.decode(loaded.body).results.map(\.id) == [603, 9, 604, 1])
        }
    }

    static var recordedSearchPage: URL {
        Fixtures.directory.appendingPathComponent("jellyfin__TMDbLib/bodies/search-movie-007-page-1.body.json")
    }

    static var recordedSearchPageAvailable: Bool {
        FileManager.default.fileExists(atPath: recordedSearchPage.path)
    }

    /// Skipped (visibly) without the fixtures, except under CI, where a missing fixture fails.
    @Test(.enabled(if: recordedSearchPageAvailable || ProcessInfo.processInfo.environment["CI"] == "true", "needs ../shared/tmdb-fixtures or $MOVIESD_FIXTURES"))
    func roundTripsARecordedTMDBSearchPage() async throws {
        let url = Self.recordedSearchPage
        let body = try Data(contentsOf: url)
        let expectedIDs = try MoviesResponseDTO.decode(body).results.map(\.id)
        #expect(expectedIDs.count > 1)
        try await Self.withStorage { storage, _ in
            let saved = StoredResponse(key: "search:007:1", resource: .search, body: body, fetchedAt: Date(timeIntervalSince1970: 5), expiresAt: Date(timeIntervalSince1970: 10))
            try await storage.save(saved)
            let loaded = try #require(try await storage.response(forKey: "search:007:1"))
            #expect(loaded.body == body)
            #expect(try MoviesResponseDTO.decode(loaded.body).results.map(\.id) == expectedIDs)
        }
    }

    @Test func anOlderResponseNeverOverwritesANewerOne() async throws {
        try await Self.withStorage { storage, _ in
            let savedNew = try await storage.save(Self.entry("movie:603", body: "new", fetchedAt: 2000))
            let savedOld = try await storage.save(Self.entry("movie:603", body: "old", fetchedAt: 1000))
            #expect(savedNew)
            #expect(savedOld == false)
            #expect(try await storage.response(forKey: "movie:603")?.body == Data("new".utf8))
            let savedNewer = try await storage.save(Self.entry("movie:603", body: "newer", fetchedAt: 3000))
            #expect(savedNewer)
            #expect(try await storage.response(forKey: "movie:603")?.body == Data("newer".utf8))
        }
    }

    @Test func revalidateKeepsTheBodyAndMovesFreshnessButNeverBackwards() async throws {
        try await Self.withStorage { storage, _ in
            var saved = Self.entry("movie:603", body: "body", fetchedAt: 1000)
            saved.etag = "v1"
            try await storage.save(saved)
            try await storage.revalidate(key: "movie:603", fetchedAt: Date(timeIntervalSince1970: 5000), expiresAt: Date(timeIntervalSince1970: 9000))
            let revalidated = try #require(try await storage.response(forKey: "movie:603"))
            #expect(revalidated.body == Data("body".utf8))
            #expect(revalidated.etag == "v1")
            #expect(revalidated.fetchedAt == Date(timeIntervalSince1970: 5000))
            #expect(revalidated.expiresAt == Date(timeIntervalSince1970: 9000))

            try await storage.revalidate(key: "movie:603", fetchedAt: Date(timeIntervalSince1970: 2000), expiresAt: Date(timeIntervalSince1970: 2500))
            #expect(try await storage.response(forKey: "movie:603")?.fetchedAt == Date(timeIntervalSince1970: 5000))
        }
    }

    @Test func invalidateByPrefixKeepsRowsButMakesThemStale() async throws {
        try await Self.withStorage { storage, _ in
            try await storage.save(Self.entry("search:matrix:1", fetchedAt: 1000, maxAge: 10_000))
            try await storage.save(Self.entry("search:matrix:2", fetchedAt: 1000, maxAge: 10_000))
            try await storage.save(Self.entry("movie:603", fetchedAt: 1000, maxAge: 10_000))
            let now = Date(timeIntervalSince1970: 2000)
            #expect(try await storage.invalidate(keyPrefixes: ["search:"], now: now) == 2)
            let invalidated = try #require(try await storage.response(forKey: "search:matrix:1"))
            #expect(invalidated.isStale(at: now))
            #expect(invalidated.body == Data("{}".utf8))
            #expect(try await storage.response(forKey: "movie:603")?.isStale(at: now) == false)
            let statistics = try await storage.statistics(now: now, byteBudget: 1)
            #expect(statistics.entries == 3)
            #expect(statistics.staleEntries == 2)
            // Empty prefix list: everything; overlapping prefixes count a row once.
            #expect(try await storage.invalidate(keyPrefixes: ["search:", "search:matrix"], now: now) == 2)
            #expect(try await storage.invalidate(keyPrefixes: [], now: now) == 3)
            #expect(try await storage.statistics(now: now, byteBudget: 1).staleEntries == 3)
        }
    }

    @Test func purgeTreatsPercentAndUnderscoreLiterally() async throws {
        try await Self.withStorage { storage, _ in
            for key in ["search:100%_off:1", "search:100xxoff:1", "search:100%Aoff:1", "search:100%_OFF:1", "search:a_b", "search:axb", "movie:1"] {
                try await storage.save(Self.entry(key))
            }
            #expect(try await storage.purge(keyPrefixes: ["search:100%_"]).entries == 2)
            #expect(try await storage.response(forKey: "search:100%_off:1") == nil)
            #expect(try await storage.response(forKey: "search:100%_OFF:1") == nil)
            #expect(try await storage.response(forKey: "search:100xxoff:1") != nil)
            #expect(try await storage.response(forKey: "search:100%Aoff:1") != nil)
            #expect(try await storage.purge(keyPrefixes: ["search:a_"]).entries == 1)
            #expect(try await storage.response(forKey: "search:axb") != nil)
            #expect(try await storage.purge(keyPrefixes: []).entries == 4)
            #expect(try await storage.statistics(now: Date(), byteBudget: 0).entries == 0)
        }
    }

    @Test func purgeCountsThePinnedEntriesItDeletes() async throws {
        try await Self.withStorage { storage, _ in
            for key in ["search:matrix:1", "search:matrix:2", "search:alien:1", "movie:603"] {
                try await storage.save(Self.entry(key))
            }
            try await storage.pinForSystem(["search:matrix:1", "movie:603"])
            #expect(try await storage.purge(keyPrefixes: ["search:matrix"]) == PurgedEntries(entries: 2, pinned: 1))
            #expect(try await storage.purge(keyPrefixes: ["search:alien"]) == PurgedEntries(entries: 1, pinned: 0))
            #expect(try await storage.purge(keyPrefixes: []) == PurgedEntries(entries: 1, pinned: 1))
        }
    }

    @Test func evictionRemovesLeastRecentlyUsedUnpinnedEntriesFirst() async throws {
        let clock = TestClock()
        try await Self.withStorage(clock: clock) { storage, _ in
            // Saved in order a, b, c, d (100 bytes each), each a second later.
            for key in ["a", "b", "c", "d"] {
                try await storage.save(Self.entry(key, body: String(repeating: "x", count: 100)))
                clock.advance(by: 1)
            }
            try await storage.pinForSystem(["a", "missing"])
            _ = try await storage.response(forKey: "b")  // b is now the most recently used
            clock.advance(by: 1)

            // 400 bytes, budget 250: two unpinned LRU entries go: c then d (a is pinned, b was read).
            #expect(try await storage.evict(toFit: 250) == 2)
            #expect(try await storage.response(forKey: "a") != nil)
            #expect(try await storage.response(forKey: "b") != nil)
            #expect(try await storage.response(forKey: "c") == nil)
            #expect(try await storage.response(forKey: "d") == nil)
            #expect(try await storage.evict(toFit: 250) == 0)

            // Pinned entries survive even a zero budget; unpinning makes them evictable.
            #expect(try await storage.evict(toFit: 0) == 1)
            #expect(try await storage.response(forKey: "a") != nil)
            try await storage.unpin(["a"], for: .system)
            #expect(try await storage.evict(toFit: 0) == 1)
            #expect(try await storage.statistics(now: Date(), byteBudget: 0).entries == 0)
        }
    }

    @Test func savingAPinnedEntryAgainKeepsItPinned() async throws {
        try await Self.withStorage { storage, _ in
            try await storage.save(Self.entry("movie:1", fetchedAt: 1))
            try await storage.pinForSystem(["movie:1"])
            try await storage.save(Self.entry("movie:1", fetchedAt: 2))
            #expect(try await storage.statistics(now: Date(), byteBudget: 0).pinnedEntries == 1)
        }
    }

    /// Stores `movie:1` at 5000 and reads it at 5100, then runs `body` with the storage, the store
    /// and a read of `movie:1`'s `last_access` in the table.
    static func withEntryReadLater(
        _ body: (SQLiteResponseStorage, SQLiteStore, @escaping @Sendable (SQLiteConnection) throws -> Int64?) async throws -> Void
    ) async throws {
        let clock = TestClock(Date(timeIntervalSince1970: 5000))
        try await withStorage(clock: clock) { storage, store in
            try await storage.save(entry("movie:1"))
            clock.advance(by: 100)
            _ = try await storage.response(forKey: "movie:1")
            try await body(storage, store) { try $0.integer("SELECT CAST(last_access AS INT) FROM responses WHERE key = 'movie:1'") }
        }
    }

    @Test func readsBufferAccessTimesUntilAFlush() async throws {
        try await Self.withEntryReadLater { storage, store, lastAccess in
            #expect(try await store.read(lastAccess) == 5000)  // the read wrote nothing
            // Nor does the next page saved: it does not pay for the reads since the last one.
            try await storage.save(Self.entry("movie:2"))
            #expect(try await store.read(lastAccess) == 5000)
            try await store.flushAccessTimes()
            #expect(try await store.read(lastAccess) == 5100)
        }
    }

    @Test func anEvictionWithinTheBudgetWritesNothing() async throws {
        try await Self.withEntryReadLater { storage, store, lastAccess in
            let revision = store.writeRevision
            let evicted = try await storage.evict(toFit: 1 << 30)
            #expect(evicted == 0)
            #expect(store.writeRevision == revision)
            let stored = try await store.read(lastAccess)
            #expect(stored == 5000)  // still buffered
            #expect(store.accessTimes.drain() == ["movie:1": 5100])
        }
    }

    @Test func manyPendingAccessTimesAreFlushedInTheBackground() async throws {
        let clock = TestClock(Date(timeIntervalSince1970: 5000))
        try await Self.withStorage(clock: clock, accessFlushThreshold: 2) { storage, store in
            try await storage.save(Self.entry("a"))
            try await storage.save(Self.entry("b"))
            clock.advance(by: 100)
            _ = try await storage.response(forKey: "a")
            _ = try await storage.response(forKey: "b")  // the second pending key triggers a flush
            let flushed: @Sendable (SQLiteConnection) throws -> Int64? = { try $0.integer("SELECT count(*) FROM responses WHERE last_access >= 5100") }
            var attempts = 0
            while try await store.read(flushed) != 2, attempts < 200 {
                attempts += 1
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(try await store.read(flushed) == 2)
        }
    }

    @Test func backgroundFlushesWaitTheirIntervalUnlessTheBufferIsFull() {
        let due = { (pending: Int, last: Double, now: Double) in
            SQLiteResponseStorage.accessFlushIsDue(pending: pending, threshold: 10, interval: 30, last: last, now: now)
        }
        #expect(due(10, -.infinity, 0))
        #expect(!due(9, -.infinity, 0))
        #expect(!due(10, 100, 129))
        #expect(due(10, 100, 130))
        #expect(!due(159, 100, 101))
        #expect(due(160, 100, 101))
    }

    @Test func statisticsCountEntriesBytesStaleAndPinned() async throws {
        try await Self.withStorage { storage, _ in
            try await storage.save(Self.entry("a", body: "12345", fetchedAt: 1000, maxAge: 100))
            try await storage.save(Self.entry("b", body: "123", fetchedAt: 1000, maxAge: 1000))
            try await storage.save(Self.entry("c", body: "", fetchedAt: 1000, maxAge: 1000))
            try await storage.pinForSystem(["b"])
            let statistics = try await storage.statistics(now: Date(timeIntervalSince1970: 1100), byteBudget: 42)
            #expect(statistics == CacheStats(entries: 3, bytes: 8, staleEntries: 1, pinnedEntries: 1, byteBudget: 42, pinnedBytes: 3))
            #expect(try await storage.response(forKey: "c")?.body == Data())
        }
    }

    @Test func aStoredReplyIsKeptAndCountsInTheByteBudget() async throws {
        try await Self.withStorage { storage, _ in
            var entry = Self.entry("search:a", body: String(repeating: "b", count: 100))
            entry.reply = Array(String(repeating: "r", count: 60).utf8)
            entry.replyVersion = 1
            try await storage.save(entry)
            try await storage.save(Self.entry("search:b", body: String(repeating: "b", count: 100), fetchedAt: 1001))
            #expect(try await storage.response(forKey: "search:a")?.reply == entry.reply)
            #expect(try await storage.response(forKey: "search:b")?.reply == nil)
            let statistics = try await storage.statistics(now: Date(timeIntervalSince1970: 1100), byteBudget: 0)
            #expect(statistics.bytes == 260)
            // Over a 200-byte budget the older entry goes: with its reply it is 160 bytes, not 100.
            #expect(try await storage.evict(toFit: 200) == 1)
            #expect(try await storage.response(forKey: "search:a") == nil)
        }
    }

    // MARK: - The memory of entries

    @Test func itsMemoryAgreesWithTheTableAfterEveryKindOfWriteAndKeepsWhatAWriteDidNotTouch() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 2)
            let storage = SQLiteResponseStorage(store: store, memory: ResponseMemory(byteBudget: 1 << 20))
            let table = SQLiteResponseStorage(store: store)
            let problems = try await ResponseMemoryContract.violations(of: storage, truth: { try await table.response(forKey: $0) }, replyVersion: WireCoding.version)
            #expect(problems.isEmpty, "\(problems)")
            await store.close()
        }
    }

    @Test func aReplyIsUpgradedOnlyOnTheRowFetchedWhenItWasReadAndTheMemoryHoldsTheUpgradedRow() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 2)
            let storage = SQLiteResponseStorage(store: store, memory: ResponseMemory(byteBudget: 1 << 20))
            try await storage.save(Self.entry("search:a", body: String(repeating: "b", count: 100), fetchedAt: 1000))
            _ = try await storage.response(forKey: "search:a")
            #expect(storage.remembered(forKey: "search:a")?.bodyOmitted == false)
            try await storage.upgradeReply(key: "search:a", fetchedAt: Date(timeIntervalSince1970: 999), reply: Array("{}".utf8), version: WireCoding.version)
            #expect(try await storage.response(forKey: "search:a")?.reply == nil, "another fetch's row: unchanged")
            try await storage.upgradeReply(key: "search:a", fetchedAt: Date(timeIntervalSince1970: 1000), reply: Array("{\"r\":1}".utf8), version: WireCoding.version)
            #expect(storage.remembered(forKey: "search:a")?.response.reply == Array("{\"r\":1}".utf8), "the memory holds the upgraded row")
            let upgraded = try #require(try await storage.response(forKey: "search:a"))
            #expect(upgraded.reply == Array("{\"r\":1}".utf8) && upgraded.replyVersion == WireCoding.version)
            #expect(upgraded.expiresAt == Date(timeIntervalSince1970: 1600))
            #expect(storage.remembered(forKey: "search:a")?.bodyOmitted == true, "remembered again, with its reply")
            #expect(try await storage.statistics(now: Date(timeIntervalSince1970: 1100), byteBudget: 0).bytes == 107, "the reply counts in the budget")
            await store.close()
        }
    }

    @Test func aReadThatOverlapsAWriteOfItsKeyIsNotRemembered() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 2)
            let memory = ResponseMemory(byteBudget: 1 << 20)
            let storage = SQLiteResponseStorage(store: store, memory: memory)
            let table = SQLiteResponseStorage(store: store)
            try await table.save(Self.entry("search:a", fetchedAt: 1000))
            // A read of the old row began; the save of a newer one commits before it finishes.
            let mark = memory.writeMark(forKey: "search:a")
            let old = try #require(try await table.response(forKey: "search:a"))
            try await storage.save(Self.entry("search:a", fetchedAt: 2000))
            memory.committed(ResponseMemory.Changes(touched: ["search:a"], current: []))  // the newer one is not in memory either
            memory.fill(old, readSince: mark)
            #expect(storage.remembered(forKey: "search:a") == nil, "the old row must not be remembered over the newer one")
            #expect(try await storage.response(forKey: "search:a")?.fetchedAt == Date(timeIntervalSince1970: 2000))
            await store.close()
        }
    }

    // MARK: - Accesses answered from memory

    @Test func anAccessRecordedWithoutAReadCountsForEviction() async throws {
        let clock = TestClock()
        try await Self.withStorage(clock: clock) { storage, _ in
            let body = String(repeating: "x", count: 100)
            try await storage.save(Self.entry("search:older", body: body))
            clock.advance(by: 1)
            try await storage.save(Self.entry("search:newer", body: body))
            clock.advance(by: 1)
            // Only through recordAccess: no read of the older entry.
            storage.recordAccess(forKey: "search:older")
            clock.advance(by: 1)
            #expect(try await storage.evict(toFit: 100) == 1)
            #expect(try await storage.response(forKey: "search:older") != nil)
            #expect(try await storage.response(forKey: "search:newer") == nil)
        }
    }

    @Test func withoutTheRecordedAccessTheOlderEntryIsEvicted() async throws {
        let clock = TestClock()
        try await Self.withStorage(clock: clock) { storage, _ in
            let body = String(repeating: "x", count: 100)
            try await storage.save(Self.entry("search:older", body: body))
            clock.advance(by: 1)
            try await storage.save(Self.entry("search:newer", body: body))
            clock.advance(by: 1)
            #expect(try await storage.evict(toFit: 100) == 1)
            #expect(try await storage.response(forKey: "search:older") == nil)
            #expect(try await storage.response(forKey: "search:newer") != nil)
        }
    }
}
