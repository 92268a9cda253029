import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Synchronization
import Testing

/// Following TMDB's change feed: which windows and pages are read, when the cursor moves (only
/// with everything applied), what is fetched again, and what a gap costs.
@Suite struct ChangeFeedSyncTests {
    /// The storage port, recording what a run applied.
    actor RecordingStorage: ChangeFeedStorage {
        var status = ChangeFeedStatus()
        var pinned: Set<Int> = []
        var applied: [ChangeFeedChanges] = []
        var fresh: [(ids: [Int], until: Date?)] = []
        var failApply = false

        func setCursor(_ date: String?) { status.syncedThrough = date }
        func pin(_ ids: Set<Int>) { pinned = ids }
        func changeFeedStatus() -> ChangeFeedStatus { status }
        func applyChanges(_ changes: ChangeFeedChanges, status: ChangeFeedStatus) throws -> ChangeFeedApplied {
            if failApply { throw MoviesError.storage(.full) }
            applied.append(changes)
            self.status = status
            let changed = changes.coveredSince == nil ? pinned : pinned.intersection(changes.changedIDs)
            return ChangeFeedApplied(pinnedChanged: changed.sorted(), changedCached: changed.count, validated: 0)
        }
        func setMoviesFresh(_ ids: [Int], until date: Date?, now: Date) { fresh.append((ids, date)) }
        func recordChangeFeedRun(_ status: ChangeFeedStatus) { self.status = status }
    }

    /// TMDB's side: the ids changed on each day, the keys each movie changed, and whether the
    /// feed answers.
    final class Feed: Sendable {
        let changedOn = Mutex<[String: [Int]]>([:])
        let keys = Mutex<[Int: [String]]>([:])
        let failingPage = Mutex<Int?>(nil)
        let refusesWindows = Mutex(false)

        func handle(_ request: RemoteRequest, _ etag: String?) throws -> RemoteResponse {
            switch request {
            case .movieChanges(let start, let end, let page):
                if refusesWindows.withLock({ $0 }) {
                    throw MoviesError(code: .remoteRejected, message: "Invalid date range", httpStatus: 422, tmdbCode: 20)
                }
                if failingPage.withLock({ $0 }) == page { throw MoviesError(code: .remoteUnavailable, message: "connection reset") }
                let (first, last) = (CalendarDay(start)!, CalendarDay(end)!)
                let ids = changedOn.withLock { days in
                    days.filter { CalendarDay($0.key).map { first <= $0 && $0 <= last } ?? false }.flatMap(\.value)
                }.sorted()
                let pages = max(1, (ids.count + 99) / 100)
                let slice = ids.dropFirst((page - 1) * 100).prefix(100).map { #"{"id":\#($0),"adult":false}"# }
                return TMDBSampleBodies.ok(Data(#"{"results":[\#(slice.joined(separator: ","))],"page":\#(page),"total_pages":\#(pages),"total_results":\#(ids.count)}"#.utf8))
            case .movieChangeKeys(let id, _, _):
                let changed = keys.withLock { $0[id] ?? ["title"] }.map { #"{"key":"\#($0)","items":[]}"# }
                return TMDBSampleBodies.ok(Data(#"{"changes":[\#(changed.joined(separator: ","))]}"#.utf8))
            case .movie(let id, _):
                return TMDBSampleBodies.ok(Data(#"{"id":\#(id),"title":"Movie \#(id)","poster_path":"/p\#(id).jpg"}"#.utf8))
            case .configuration:
                return TMDBSampleBodies.ok(TMDBSampleBodies.configuration())
            case .image:
                return RemoteResponse(httpStatus: 200, body: Data([0x89, 0x50, 0x4E, 0x47]), contentType: "image/png")
            case .search:
                throw MoviesError(code: .remoteUnavailable, message: "not in this test")
            }
        }
    }

    struct Harness {
        let clock = TestClock(Date(timeIntervalSince1970: 1_795_600_800))  // 2026-11-25 10:00 UTC
        let feed = Feed()
        let remote: ScriptedMoviesRemote
        let responses = InMemoryResponseStorage()
        let storage = RecordingStorage()
        let health: RemoteHealth
        let sync: ChangeFeedSync
        let movies: DefaultMoviesRepository

        init(settings: ChangeFeedSync.Settings = ChangeFeedSync.Settings()) {
            let feed = feed
            remote = ScriptedMoviesRemote(handler: { try feed.handle($0, $1) })
            health = RemoteHealth(configuration: .init(failureThreshold: 3), now: clock.now, randomUnit: { 0.5 })
            movies = DefaultMoviesRepository(storage: responses, remote: remote, health: health, now: clock.now)
            let posters = DefaultPosterImagesRepository(storage: responses, remote: remote, health: health, now: clock.now)
            sync = ChangeFeedSync(remote: remote, storage: storage, movies: movies, posterImages: posters, health: health, settings: settings, now: clock.now)
        }

        /// The feed windows requested, as "start..end#page".
        func feedRequests() async -> [String] {
            await remote.requests.compactMap { request in
                guard case .movieChanges(let start, let end, let page) = request else { return nil }
                return "\(start)..\(end)#\(page)"
            }
        }

        func detailRequests() async -> [Int] {
            await remote.requests.compactMap { request in
                guard case .movie(let id, _) = request else { return nil }
                return id
            }
        }
    }

    @Test func aFirstRunReadsYesterdayAndTodayAndSetsTheCursor() async throws {
        let h = Harness()
        h.feed.changedOn.withLock { $0 = ["2026-11-24": [1, 2], "2026-11-25": [3], "2026-11-20": [9]] }
        let status = try await h.sync.run()
        #expect(await h.feedRequests() == ["2026-11-24..2026-11-25#1"])
        let applied = try #require(await h.storage.applied.first)
        #expect(applied.changedIDs == [1, 2, 3])
        #expect(applied.coveredSince == CalendarDay("2026-11-24")?.start)
        #expect(applied.validUntil == h.clock.date.addingTimeInterval(1.5 * 86_400))
        #expect(status.syncedThrough == "2026-11-25")
        #expect(status.lastOutcome == .ok)
        #expect(status.requests == 1)
        #expect(await h.storage.status.syncedThrough == "2026-11-25")
    }

    @Test func everyPageOfAWindowIsReadUpToItsLast() async throws {
        let h = Harness()
        h.feed.changedOn.withLock { $0 = ["2026-11-25": Array(1...250)] }
        try await h.sync.run()
        #expect(await h.feedRequests() == ["2026-11-24..2026-11-25#1", "2026-11-24..2026-11-25#2", "2026-11-24..2026-11-25#3"])
        #expect(await h.storage.applied.first?.changedIDs.count == 250)
    }

    @Test func aThirtyDayOutageWalksThreeWindowsFromTheCursorLessADay() async throws {
        let h = Harness()
        await h.storage.setCursor("2026-10-26")
        h.feed.changedOn.withLock { $0 = ["2026-10-25": [1], "2026-11-08": [2], "2026-11-25": [3], "2026-10-20": [4]] }
        try await h.sync.run()
        #expect(await h.feedRequests() == ["2026-10-25..2026-11-07#1", "2026-11-08..2026-11-21#1", "2026-11-22..2026-11-25#1"])
        #expect(await h.storage.applied.first?.changedIDs == [1, 2, 3])
        #expect(await h.storage.applied.first?.coveredSince == CalendarDay("2026-10-25")?.start)
    }

    @Test func aRunThatFailsMidPagingAppliesNothingAndTheRerunReadsTheSameWindows() async throws {
        let h = Harness()
        await h.storage.setCursor("2026-11-20")
        h.feed.changedOn.withLock { $0 = ["2026-11-22": Array(1...150)] }
        h.feed.failingPage.withLock { $0 = 2 }
        await #expect(throws: MoviesError.self) { try await h.sync.run() }
        #expect(await h.storage.applied.isEmpty)
        let failed = await h.storage.status
        #expect(failed.syncedThrough == "2026-11-20", "the cursor did not move")
        #expect(failed.lastOutcome == .failed)
        #expect(failed.lastError?.contains("connection reset") == true)

        h.feed.failingPage.withLock { $0 = nil }
        try await h.sync.run()
        #expect(await h.feedRequests() == ["2026-11-19..2026-11-25#1", "2026-11-19..2026-11-25#2", "2026-11-19..2026-11-25#1", "2026-11-19..2026-11-25#2"])
        #expect(await h.storage.applied.first?.changedIDs.count == 150)
        #expect(await h.storage.status.syncedThrough == "2026-11-25")
    }

    @Test func onlyChangedPinnedMoviesAreFetchedAgainAndAnImagesChangeFetchesOnlyThePoster() async throws {
        let h = Harness()
        await h.storage.pin([10, 20, 30])
        h.feed.changedOn.withLock { $0 = ["2026-11-25": [10, 20, 99]] }
        h.feed.keys.withLock { $0 = [10: ["title", "images"], 20: ["images"]] }
        // Movie 20's details are cached (for its poster path); 10 is fetched again whole.
        _ = await FetchedRecord<MovieDetails> { try await h.movies.movieDetails(id: 20, language: nil, policy: .networkOnly, emit: $0) }
        let before = await h.detailRequests()
        let status = try await h.sync.run()
        #expect(await h.detailRequests().dropFirst(before.count) == [10], "30 and 99 unchanged or not pinned; 20 only images")
        let images = await h.remote.requests.filter { if case .image(_, _, let path) = $0 { return path == "/p20.jpg" } else { return false } }
        #expect(images.count == 1)
        let fresh = await h.storage.fresh
        #expect(fresh.map(\.ids) == [[20]])
        #expect(fresh.first?.until != nil)
        #expect(status.refetched == 2)
        #expect(await h.storage.status.refetched == 2)
    }

    @Test(arguments: [false, true])
    func aCursorTooOldOrAWindowTMDBRefusesMeansEveryPinnedMovieIsFetchedAgain(refused: Bool) async throws {
        let h = Harness()
        await h.storage.pin([5, 6])
        if refused {
            await h.storage.setCursor("2026-11-01")
            h.feed.refusesWindows.withLock { $0 = true }
        } else {
            await h.storage.setCursor("2026-01-01")
        }
        let status = try await h.sync.run()
        #expect(await h.feedRequests().count == (refused ? 1 : 0))
        #expect(await h.storage.applied.first?.coveredSince == nil)
        #expect(await h.detailRequests().sorted() == [5, 6])
        #expect(status.lastOutcome == .fullRevalidation)
        #expect(status.syncedThrough == "2026-11-25")
    }

    @Test func aFailureAnEarlierProcessRecordedIsRetriedAtOnceAndThisProcessesWaitsItsHour() async throws {
        let h = Harness(settings: ChangeFeedSync.Settings(interval: 86_400))
        await h.storage.setCursor("2026-11-24")
        h.feed.failingPage.withLock { $0 = 1 }
        await #expect(throws: MoviesError.self) { try await h.sync.run() }
        // Another process (the daemon restarted, with a token that may now be right) reads the
        // failure recorded a minute ago: due at once, not in an hour.
        h.clock.advance(by: 60)
        let restarted = ChangeFeedSync(
            remote: h.remote, storage: h.storage, movies: h.movies,
            posterImages: DefaultPosterImagesRepository(storage: h.responses, remote: h.remote, health: h.health, now: h.clock.now),
            health: h.health, settings: ChangeFeedSync.Settings(interval: 86_400), now: h.clock.now)
        #expect(await !restarted.runIfDue(), "still failing, and recorded again")
        #expect(await h.storage.status.lastOutcome == .failed)
        h.feed.failingPage.withLock { $0 = nil }
        h.clock.advance(by: 60)
        #expect(await !restarted.runIfDue(), "its own failure waits for the retry delay")
        h.clock.advance(by: 3_600)
        #expect(await restarted.runIfDue())
        #expect(await h.storage.status.lastError == nil, "the error is gone once a run succeeds")
    }

    @Test func aRunIsDueOnlyAfterItsInterval() async throws {
        let h = Harness(settings: ChangeFeedSync.Settings(interval: 3_600))
        #expect(await h.sync.runIfDue())
        #expect(await !h.sync.runIfDue())
        h.clock.advance(by: 3_599)
        #expect(await !h.sync.runIfDue())
        h.clock.advance(by: 1)
        #expect(await h.sync.runIfDue())
        #expect(await h.feedRequests().count == 2)
    }

    @Test(arguments: ["2026-11-25", "2024-02-29", "1970-01-01", "2000-12-31"])
    func feedDatesRoundTrip(text: String) throws {
        let date = try #require(CalendarDay(text))
        #expect(date.description == text)
        #expect(CalendarDay(date.start) == date)
        #expect(CalendarDay(date.start.addingTimeInterval(86_399)) == date)
    }

    @Test(arguments: ["2026-02-30", "2026-13-01", "26-11-25", "2026-11-25T00:00", ""])
    func feedDatesRejectWhatIsNotADay(text: String) {
        #expect(CalendarDay(text) == nil)
    }
}
