import FoundationEssentials
@testable import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing

/// What the data layer's components count for the daemon's metrics, where the work is done: the
/// memory's lookups and evictions, storage failures by database and fault, refresh runs and their
/// entries, change-feed runs by outcome.
@Suite struct ComponentMetricsTests {
    @Test func theMemoryCountsHitsMissesAndEvictions() {
        // Three entries fit, a fourth evicts the least recently used.
        let memory = ResponseMemory(byteBudget: 3 * 800)
        for key in ["a", "b", "c", "d"] { ResponseMemoryTests.save(ResponseMemoryTests.entry(key), in: memory) }
        #expect(memory.remembered(forKey: "d", at: 0) != nil)
        #expect(memory.remembered(forKey: "a", at: 0) == nil)
        #expect(memory.remembered(forKey: "zzz", at: 0) == nil)
        let statistics = memory.statistics
        #expect(statistics.hits == 1)
        #expect(statistics.misses == 2)
        #expect(statistics.evictions == 1)
        #expect(statistics.entries == 3)
        #expect(statistics.byteBudget == 3 * 800)
        #expect(statistics.bytes == memory.usage.bytes)
    }

    @Test func everyStorageFailureIsCountedNotOnlyTheChangesTheJournalSays() {
        let events = RecordingEventLog()
        let monitor = StorageHealthMonitor(events: events)
        monitor.recordFailure(FakeStorageFault(.full), during: "writing", in: .cache)
        monitor.recordFailure(FakeStorageFault(.full), during: "writing", in: .cache)
        monitor.recordFailure(FakeStorageFault(.locked), during: "writing", in: .state)
        #expect(monitor.failures() == [.cache: [.full: 2], .state: [.locked: 1]])
        // The journal says each change once.
        #expect(events.names == ["storage.full", "storage.locked"])
    }

    @Test func refreshRunsAreCountedWithTheirEntries() async throws {
        let harness = RefresherHarness(totalPages: 2)
        try await harness.add(queries: ["matrix"], pages: 3, movies: [603])
        _ = try await harness.refresher.refresh(watchlist: nil, mode: .due) { _ in }
        // Again: everything is current now.
        _ = try await harness.refresher.refresh(watchlist: nil, mode: .due) { _ in }
        let counted = harness.refresher.metrics.snapshot
        #expect(counted.completed == 2)
        #expect(counted.cancelled == 0)
        #expect(counted.fetched == 3)
        #expect(counted.skipped >= 1)
        #expect(counted.current >= 3)
        #expect(counted.failed == 0)
        #expect(counted.durationSeconds >= 0)
    }

    @Test func changeFeedRunsAreCountedByOutcome() async throws {
        let harness = RefresherHarness(changeFeed: true)
        let feed = try #require(await harness.refresher.changeFeed)
        _ = try await feed.run()
        await harness.takeDown()
        _ = try? await feed.run()
        let runs = feed.runs
        #expect(runs[.applied] == 1)
        #expect(runs[.failed] == 1)
        #expect(runs[.fullRevalidation] == 0)
    }
}

/// The outbox's edits TMDB took and refused, counted as each is settled.
@Suite struct OutboxMetricsTests {
    @Test func deliveredAndRejectedEditsAreCounted() async throws {
        let tmdb = SimulatedTMDBAccount(knownMovies: [1, 2])
        let sessions = InMemoryAccountSessionStore(AccountSession(sessionID: tmdb.openSession(), accountID: tmdb.accountID, username: "sim-user"))
        let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
        let metrics = OutboxMetrics()
        var settings = AccountSync.Settings()
        settings.metrics = metrics
        let sync = AccountSync(remote: tmdb, storage: InMemoryAccountStorage(), sessions: sessions, settings: settings, now: clock.now, time: clock.timeSource)
        for (id, change) in [(404_404, AccountEdit.Change.watchlist(true)), (1, .watchlist(true)), (2, .rating(6))] {
            _ = try await sync.apply(try AccountEdit(movieID: id, change: change), waitSeconds: 0)
        }
        #expect(try await sync.sync(waitSeconds: 60).isSettled)
        #expect(metrics.delivered == 2)
        #expect(metrics.rejected == 1)
    }
}
