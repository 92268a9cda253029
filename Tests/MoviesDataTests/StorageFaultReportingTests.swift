import FoundationEssentials
@testable import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing

/// A failed cache write is never silent: the answer says it was not stored and why, the journal
/// says it once per cause, and the health reported by `Status` follows.
@Suite struct StorageFaultReportingTests {
    typealias H = RepositoryHarness

    private func harness() async -> H {
        let h = RepositoryHarness()
        await h.remote.script(H.remoteRequest(), .success(TMDBSampleBodies.ok(TMDBSampleBodies.searchPage(titles: ["Fresh"]))))
        return h
    }

    @Test func aFullDiskIsReportedInTheAnswerAndLoggedOnce() async throws {
        let h = await harness()
        await h.storage.setWriteFailure(FakeStorageFault(.full))
        for _ in 0..<3 {
            let record = try await h.search(.cacheThenNetwork)
            #expect(record.origins == [.network])
            #expect(record.error == nil)
            #expect(record.updates.last?.freshness.stored == false)
            #expect(record.updates.last?.freshness.storageFault == .full)
        }
        #expect(await h.remote.fetchCount == 3)
        let warnings = h.events.events.filter { $0.name.hasPrefix("storage.") }
        #expect(warnings.map(\.name) == ["storage.full"])
        #expect(warnings.first?.severity == .error, "a fault of either database is logged at err")
        #expect(h.storageHealth.storageHealth().state == .full)
    }

    @Test func aChangeOfCauseAndTheRecoveryAreEachLoggedOnce() async throws {
        let h = await harness()
        await h.storage.setWriteFailure(FakeStorageFault(.full))
        _ = try await h.search(.networkOnly)
        await h.storage.setWriteFailure(FakeStorageFault(.locked))
        _ = try await h.search(.networkOnly)
        _ = try await h.search(.networkOnly)
        await h.storage.setWriteFailure(Optional<FakeStorageFault>.none)
        let stored = try await h.search(.networkOnly)
        _ = try await h.search(.networkOnly)
        #expect(stored.updates.last?.freshness.stored == nil)
        #expect(stored.updates.last?.freshness.storageFault == nil)
        #expect(h.events.names.filter { $0.hasPrefix("storage.") } == ["storage.full", "storage.locked", "storage.ok"])
        #expect(h.storageHealth.storageHealth().state == .ok)
    }

    @Test func aStoredAnswerSaysNothingAboutStorage() async throws {
        let h = await harness()
        let record = try await h.search(.networkOnly)
        #expect(record.updates.last?.freshness.stored == nil)
        #expect(h.events.names.filter { $0.hasPrefix("storage.") }.isEmpty)
    }

    @Test func anUnreadableCacheIsATypedStorageError() async throws {
        let h = await harness()
        await h.storage.setFailure(MoviesError.storage(.corrupt, detail: "SQLite: database disk image is malformed"))
        let record = try await h.search(.cacheOnly)
        #expect(record.error?.code == .storage)
        #expect(record.error?.storageFault == .corrupt)
        #expect(h.events.events.first { $0.name == "storage.corrupt" }?.severity == .error)
    }
}

/// A storage adapter's error is never mistaken for a TMDB failure.
@Suite struct StorageErrorWrappingTests {
    @Test func aStorageAdaptersErrorStaysAStorageError() {
        let wrapped = MoviesError(wrapping: FakeStorageFault(.full))
        #expect(wrapped.code == .storage)
        #expect(wrapped.storageFault == .full)
        #expect(!wrapped.message.contains("TMDB"))
    }
}
