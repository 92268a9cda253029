import FoundationEssentials
@testable import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing

/// Timing through the injected clock only: `runPass()` is one pass, its result the next delay.
@Suite struct RefreshSchedulerTests {
    static let movieFresh = Double(CachePolicy.defaultFreshSeconds[.movie] ?? 0)

    @Test func refreshesAnEntryAtThreeQuartersOfItsFreshTime() async throws {
        let harness = RefresherHarness()
        try await harness.add(movies: [603])
        await harness.scheduler.runPass()  // never fetched: due at once
        #expect(await harness.remote.fetchCount == 1)

        harness.clock.advance(by: 0.70 * Self.movieFresh)
        let delay = await harness.scheduler.runPass()
        #expect(await harness.remote.fetchCount == 1)  // not due yet
        #expect(delay == RefreshScheduler.Configuration().idleSeconds)  // due in 0.05 × fresh, beyond the idle cap

        harness.clock.advance(by: 0.06 * Self.movieFresh)
        await harness.scheduler.runPass()
        #expect(await harness.remote.fetchCount == 2)  // due at 3/4, refreshed before expiry
        #expect(await harness.scheduler.state().state == .idle)
    }

    @Test func backsOffWhileDownAndSpreadsTheCatchUp() async throws {
        let harness = RefresherHarness(schedule: .init(requestsPerSecond: 10, batchSize: 5, initialBackoffSeconds: 5))
        try await harness.add(movies: Array(1...12))
        await harness.takeDown()

        #expect(await harness.scheduler.runPass() == 5)  // first backoff, after one attempt
        #expect(await harness.remote.fetchCount == 1)
        #expect(await harness.scheduler.state().state == .backingOff)
        await harness.scheduler.runPass()  // still backing off: no request
        #expect(await harness.remote.fetchCount == 1)
        harness.clock.advance(by: 5)
        #expect(await harness.scheduler.runPass() == 10)  // doubled
        #expect(await harness.remote.fetchCount == 2)

        await harness.bringUp()
        harness.clock.advance(by: 10)
        await harness.scheduler.runPass()  // recovery probe: one entry only
        #expect(await harness.remote.fetchCount == 3)
        let pace = await harness.scheduler.runPass()  // then batches at the background rate
        #expect(await harness.remote.fetchCount == 8)
        #expect(pace == 0.5)
        #expect(await harness.scheduler.state().state == .idle)
    }

    @Test func aWatchlistEditWakesTheSleepingScheduler() async throws {
        let harness = RefresherHarness()
        let scheduler = harness.scheduler
        let running = Task { await scheduler.run(sleep: { _ in try await Task.sleep(for: .seconds(3600)) }) }
        for _ in 0..<2000 where await scheduler.state().nextRunAt == nil {
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(await harness.remote.fetchCount == 0)  // nothing to do: asleep for an hour
        try await harness.add(movies: [603])
        for _ in 0..<2000 where await harness.remote.fetchCount == 0 {
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(await harness.remote.fetchCount == 1)
        running.cancel()
        await running.value
    }
}
