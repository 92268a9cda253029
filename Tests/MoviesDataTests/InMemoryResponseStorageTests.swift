import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesTestSupport
import MoviesWire
import Testing

/// The test double's memory and `recordAccess(forKey:)`, which the service's answers from memory
/// rely on: it must behave like the SQLite storage for those tests to mean anything.
@Suite struct InMemoryResponseStorageTests {
    static let start = Date(timeIntervalSince1970: 1_767_225_600)

    static func entry(_ key: String, bytes: Int = 100, fetchedAt: Date = start) -> StoredResponse {
        StoredResponse(
            key: key, resource: .search, body: Data(repeating: 0x78, count: bytes),
            fetchedAt: fetchedAt, expiresAt: fetchedAt.addingTimeInterval(600))
    }

    @Test func itsMemoryKeepsTheContractOfTheSQLiteStoragesMemory() async throws {
        let storage = InMemoryResponseStorage(memoryBytes: 1 << 20)
        let problems = try await ResponseMemoryContract.violations(of: storage, truth: { await storage.peek($0) }, replyVersion: WireCoding.version)
        #expect(problems.isEmpty, "\(problems)")
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
