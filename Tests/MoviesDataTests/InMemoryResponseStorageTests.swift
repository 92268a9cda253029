import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing

/// The test double's `revision` and `recordAccess(forKey:)`, which the repository's in-memory fast
/// path relies on: it must behave like the SQLite storage for those tests to mean anything.
@Suite struct InMemoryResponseStorageTests {
    static let start = Date(timeIntervalSince1970: 1_767_225_600)

    static func entry(_ key: String, bytes: Int = 100, fetchedAt: Date = start) -> StoredResponse {
        StoredResponse(
            key: key, resource: .search, body: Data(repeating: 0x78, count: bytes),
            fetchedAt: fetchedAt, expiresAt: fetchedAt.addingTimeInterval(600))
    }

    @Test func theRevisionChangesAfterEveryMutationAndNotAfterReads() async throws {
        let storage = InMemoryResponseStorage()
        var last = storage.changeCount
        func changed() -> Bool {
            defer { last = storage.changeCount }
            return storage.changeCount != last
        }
        await storage.seed(Self.entry("search:a"))
        #expect(changed(), "seed")
        try await storage.save(Self.entry("search:b", fetchedAt: Self.start.addingTimeInterval(1)))
        #expect(changed(), "save")
        _ = try await storage.response(forKey: "search:a")
        _ = try await storage.response(forKey: "search:missing")
        storage.recordAccess(forKey: "search:b")
        _ = try await storage.statistics(now: Self.start, byteBudget: 0)
        _ = await storage.peek("search:a")
        #expect(!changed(), "reads and recorded accesses")
        try await storage.revalidate(key: "search:a", fetchedAt: Self.start.addingTimeInterval(5), expiresAt: Self.start.addingTimeInterval(900))
        #expect(changed(), "revalidate")
        #expect(try await storage.invalidate(keyPrefixes: ["search:a"], now: Self.start.addingTimeInterval(10)) == 1)
        #expect(changed(), "invalidate")
        try await storage.setPinned(true, keys: ["search:a"])
        #expect(changed(), "setPinned")
        #expect(try await storage.evict(toFit: 150) == 1)
        #expect(changed(), "evict")
        #expect(try await storage.purge(keyPrefixes: ["search:a"]).entries == 1)
        #expect(changed(), "purge")
    }

    @Test func anAccessRecordedWithoutAReadCountsForEviction() async throws {
        let storage = InMemoryResponseStorage()
        await storage.seed(Self.entry("search:older"))
        await storage.seed(Self.entry("search:newer"))
        storage.recordAccess(forKey: "search:older")
        #expect(try await storage.evict(toFit: 100) == 1)
        #expect(await storage.keys == ["search:older"])
        #expect(await storage.readCount == 0)
    }

    @Test func withoutTheRecordedAccessTheOlderEntryIsEvicted() async throws {
        let storage = InMemoryResponseStorage()
        await storage.seed(Self.entry("search:older"))
        await storage.seed(Self.entry("search:newer"))
        #expect(try await storage.evict(toFit: 100) == 1)
        #expect(await storage.keys == ["search:newer"])
    }

    @Test func recordedAccessesApplyInOrderBeforeTheNextCall() async throws {
        let storage = InMemoryResponseStorage()
        for key in ["search:a", "search:b", "search:c"] { await storage.seed(Self.entry(key)) }
        // Least recently used first after these: b, then a, then c.
        storage.recordAccess(forKey: "search:a")
        storage.recordAccess(forKey: "search:c")
        #expect(try await storage.evict(toFit: 200) == 1)
        #expect(await storage.keys == ["search:a", "search:c"])
        #expect(try await storage.evict(toFit: 100) == 1)
        #expect(await storage.keys == ["search:c"])
    }
}
