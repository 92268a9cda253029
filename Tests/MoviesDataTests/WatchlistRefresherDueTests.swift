import FoundationEssentials
@testable import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing

/// `movies refresh` (what the timer runs) fetches what is due and leaves the rest alone; `--all`
/// fetches everything; the last refresh outlives the process (issue 29).
@Suite struct WatchlistRefresherDueTests {
    @Test func aSecondRefreshWithNothingDueFetchesNothingAndCountsEveryEntryCurrent() async throws {
        let harness = RefresherHarness(totalPages: 2)
        try await harness.add(queries: ["matrix"], pages: 2, movies: [603, 11])
        let first = try await harness.refresher.refresh(watchlist: nil, mode: .due) { _ in }
        #expect(first.done == 4)
        #expect(first.current == 0)
        #expect(await harness.remote.fetchCount == 4)

        let second = try await harness.refresher.refresh(watchlist: nil, mode: .due) { _ in }
        #expect(second.done == 0)
        #expect(second.current == 4)
        #expect(second.failed == 0)
        #expect(await harness.remote.fetchCount == 4, "nothing was due: no request")
        #expect(harness.events.events.last?.message.contains("0 fetched, 4 current") == true)
    }

    @Test func refreshingEverythingFetchesEveryEntryAgain() async throws {
        let harness = RefresherHarness(totalPages: 1)
        try await harness.add(queries: ["matrix"], pages: 1, movies: [603])
        _ = try await harness.refresher.refresh(watchlist: nil, mode: .due) { _ in }
        let all = try await harness.refresher.refresh(watchlist: nil, mode: .everything) { _ in }
        #expect(all.done == 2)
        #expect(all.current == 0)
        #expect(await harness.remote.fetchCount == 4)
    }

    @Test func anEntryInsideTheRefreshAheadWindowOrMadeStaleIsDueAndOnlyIt() async throws {
        let harness = RefresherHarness(totalPages: 1)
        try await harness.add(queries: ["matrix"], pages: 1, movies: [603, 11])
        _ = try await harness.refresher.refresh(watchlist: nil, mode: .due) { _ in }
        #expect(await harness.remote.fetchCount == 3)
        // What the change feed does to a movie TMDB lists as changed: stale, kept for offline use.
        _ = try await harness.responses.invalidate(keyPrefixes: [CacheKey.movie(id: 11, language: nil)], now: harness.clock.date)
        let afterFeed = try await harness.refresher.refresh(watchlist: nil, mode: .due) { _ in }
        #expect(afterFeed.done == 1)
        #expect(afterFeed.current == 2)
        #expect(await harness.remote.fetchCount == 4)

        // Far past every entry's refresh-ahead point: everything is due again.
        harness.clock.advance(by: 400 * 86_400)
        let late = try await harness.refresher.refresh(watchlist: nil, mode: .due) { _ in }
        #expect(late.done == 3)
        #expect(late.current == 0)
    }

    @Test func anEntryLeftAloneIsStillPinned() async throws {
        let harness = RefresherHarness(totalPages: 1)
        // Cached by an ordinary search before it was put on a list: current, not yet pinned.
        let request = try SearchRequest(query: #require(MovieQuery("matrix")), page: 1)
        _ = try await FetchedUpdates.last(of: { try await harness.movies.searchMovies(request, policy: .networkOnly, maxStaleSeconds: nil, emit: $0) })
        try await harness.add(queries: ["matrix"], pages: 1)
        let summary = try await harness.refresher.refresh(watchlist: nil, mode: .due) { _ in }
        #expect(summary.current == 1)
        #expect(try await harness.responses.statistics(now: harness.clock.date, byteBudget: 0).pinnedEntries == 1)
    }

    @Test func aRefreshOfEverythingDoesNotJoinARunningRefreshOfWhatIsDueButWaitsForIt() async throws {
        let harness = RefresherHarness(totalPages: 1)
        try await harness.add(queries: ["matrix"], pages: 1)
        await harness.remote.hold()
        let refresher = harness.refresher
        async let due = refresher.refresh(watchlist: nil, mode: .due) { _ in }
        #expect(await harness.remote.waitForHeldFetches(1))
        async let all = refresher.refresh(watchlist: nil, mode: .everything) { _ in }
        #expect(await refresher.callersOfRunningRefresh == 1, "--all does not take the answer of a refresh of what is due")
        await harness.remote.release()
        let (dueSummary, allSummary) = try await (due, all)
        #expect(dueSummary.done == 1)
        #expect(allSummary.done == 1, "it ran after, and fetched the entry again")
        #expect(await harness.remote.fetchCount == 2)
    }

    @Test func theLastRefreshOutlivesTheRefresher() async throws {
        let history = InMemoryRefreshHistoryStorage()
        let before = RefresherHarness(totalPages: 1, history: history)
        try await before.add(movies: [603])
        let summary = try await before.refresher.refresh(watchlist: nil, mode: .due) { _ in }
        let after = RefresherHarness(totalPages: 1, history: history)
        #expect(await after.refresher.lastRefresh(of: .system) == summary, "a restarted daemon still knows the last refresh")
    }
}
