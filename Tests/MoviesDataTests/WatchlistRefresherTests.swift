import FoundationEssentials
@testable import MoviesData
import MoviesDomain
import MoviesTestSupport
import Synchronization
import Testing

@Suite struct WatchlistRefresherTests {
    @Test func prefetchFillsEveryPageAndDetailSoTheyAnswerFromCacheWhileDown() async throws {
        let harness = RefresherHarness(totalPages: 2)
        try await harness.add(queries: ["matrix", "heat"], pages: 3, movies: [603, 11])
        let steps = Mutex<[String]>([])
        let summary = try await harness.refresher.refresh(watchlist: nil, mode: .due) { progress in steps.withLock { $0.append(progress.step) } }
        // 2 queries × pages 1-2 + 2 movies done; page 3 of each is beyond TMDB's last page.
        #expect(summary.done == 6)
        #expect(summary.skipped == 2)
        #expect(summary.failed == 0)
        #expect(steps.withLock { $0.count } == 8)
        #expect(await harness.remote.fetchCount == 6)
        // The journal: one line when it starts, one with the counts when it ends.
        #expect(harness.events.names == ["refresh.started", "refresh.finished"])
        #expect(harness.events.events.last?.message.contains("6 fetched, 0 current, 0 failed, 2 skipped") == true)

        await harness.takeDown()
        for query in ["matrix", "heat"] {
            for page in 1...2 { #expect(try await harness.cachedPage(query, page: page).page == page) }
        }
        #expect(try await harness.cachedMovie(603).title == "Movie 603")
        #expect(try await harness.cachedMovie(11).title == "Movie 11")
        // Pinned: eviction to a zero budget keeps every watchlist entry.
        _ = try await harness.responses.evict(toFit: 0)
        #expect(try await harness.responses.statistics(now: harness.clock.date, byteBudget: 0).pinnedEntries == 6)
        #expect(try await harness.cachedMovie(11).id == 11)
    }

    @Test func concurrentRefreshRequestsJoinTheRunningOne() async throws {
        let harness = RefresherHarness(totalPages: 1)
        try await harness.add(queries: ["matrix"], pages: 1, movies: [603])
        await harness.remote.hold()
        let refresher = harness.refresher
        async let first = refresher.refresh(watchlist: nil, mode: .due) { _ in }
        #expect(await harness.remote.waitForHeldFetches(1))
        async let second = refresher.refresh(watchlist: "films", mode: .due) { _ in }
        for _ in 0..<2000 where await refresher.callersOfRunningRefresh < 2 {
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(await refresher.callersOfRunningRefresh == 2)
        await harness.remote.release()
        let (a, b) = try await (first, second)
        #expect(a == b)
        #expect(a.done == 2)
        #expect(await harness.remote.fetchCount == 2)  // one refresh's worth
    }

    @Test func queriesAreFetchedSeveralAtOnceAndEachQuerysPagesInOrder() async throws {
        let harness = RefresherHarness(totalPages: 2)
        let queries = (1...10).map { "watch-\($0)" }
        try await harness.add(queries: queries, pages: 3)
        await harness.remote.hold()
        let refresher = harness.refresher
        let steps = Mutex<[String]>([])
        async let refreshed = refresher.refresh(watchlist: nil, mode: .due) { progress in steps.withLock { $0.append(progress.step) } }
        // Page 1 of 8 queries (the default) is in flight at once, not one query after another.
        #expect(await harness.remote.waitForHeldFetches(8))
        for _ in 0..<10 { await Task.yield() }
        #expect(await harness.remote.heldCount == 8)
        await harness.remote.release()
        let summary = try await refreshed
        #expect(summary.done == 20)
        #expect(summary.skipped == 10)
        #expect(summary.failed == 0)
        #expect(await harness.remote.fetchCount == 20)
        let labels = steps.withLock { $0 }
        for query in queries {
            let order = [" page 1", " page 2", " page 3 (beyond the last page)"].map { labels.firstIndex(of: "search \"\(query)\"" + $0) }
            #expect(order.allSatisfy { $0 != nil } && order == order.sorted { ($0 ?? 0) < ($1 ?? 0) }, "\(query): \(order)")
        }
    }

    @Test func failuresAreCountedAndAnAuthRejectionIsReportedAsSuch() async throws {
        let harness = RefresherHarness()
        try await harness.add(movies: [603, 11])
        await harness.remote.setHandler { _, _ in
            throw MoviesError(code: .remoteRejected, message: "Invalid API key", httpStatus: 401, tmdbCode: 7)
        }
        let summary = try await harness.refresher.refresh(watchlist: nil, mode: .due) { _ in }
        #expect(summary.failed == 2)
        #expect(summary.done == 0)
        #expect(summary.authRejected)
        #expect(await harness.refresher.lastRefresh(of: .system) == summary)
    }

    @Test func aMovieTMDBDoesNotHaveIsSkippedNotFailed() async throws {
        let harness = RefresherHarness()
        try await harness.add(movies: [603, 999_999])
        let ok = RefresherHarness.handler(totalPages: 1)
        await harness.remote.setHandler { request, etag in
            if case .movie(999_999, _) = request {
                throw MoviesError(code: .notFound, message: "The resource you requested could not be found.", httpStatus: 404, tmdbCode: 34, movieID: 999_999)
            }
            return try ok(request, etag)
        }
        let summary = try await harness.refresher.refresh(watchlist: nil, mode: .due) { _ in }
        #expect(summary.done == 1)
        #expect(summary.skipped == 1)
        #expect(summary.failed == 0)
        #expect(summary.firstError == nil)
    }

    @Test func anUnknownWatchlistIsNotFound() async throws {
        let harness = RefresherHarness()
        await #expect(throws: MoviesError.noSuchWatchlist("nope")) {
            try await harness.refresher.refresh(watchlist: "nope", mode: .due) { _ in }
        }
    }
}
