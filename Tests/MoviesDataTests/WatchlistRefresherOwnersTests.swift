import FoundationEssentials
@testable import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing

/// Refreshes of different owners' lists run at the same time (issue 31): one user's refresh never
/// waits for another's; a request covered by a run joins it; another over the same owner's lists
/// waits its turn; the change feed and each account are read once; `Status` tells each caller
/// only of the lists they may see; shutdown cancels every run. Gates are held fetches, never
/// sleeps; the time limit guards against a hang.
@Suite(.timeLimit(.minutes(1))) struct WatchlistRefresherOwnersTests {
    static let alice = Owner.user(LocalUser(uid: 1001))
    static let bob = Owner.user(LocalUser(uid: 1002))
    /// What a `Status` call of each may see (`OwnerScope`).
    static var aliceCalling: OwnerScope { get throws { try TestCaller(uid: 1001).scope(.visible) } }
    static var bobCalling: OwnerScope { get throws { try TestCaller(uid: 1002).scope(.visible) } }
    static var carolAdministering: OwnerScope { get throws { try TestCaller(uid: 1003, administers: true).scope(.visible) } }
    static var root: OwnerScope { get throws { try TestCaller.root.scope(.visible) } }
    static var nobody: OwnerScope { get throws { try TestCaller.nobody(.visible) } }

    /// Yields until `condition` holds: for state another task reaches (a request joining a run).
    /// Throws once the test is cancelled (its time limit), rather than spinning on.
    static func until(_ condition: () async -> Bool) async throws {
        while await !condition() {
            try Task.checkCancellation()
            await Task.yield()
        }
    }

    /// The summary of `task`, a refresh; when the test is cancelled (its time limit: a refresh
    /// that waits when it should not) the refresher's runs are cancelled, so the test fails
    /// rather than hangs.
    static func summary(_ task: Task<RefreshSummary, any Error>, _ refresher: WatchlistRefresher) async throws -> RefreshSummary {
        try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            Task { await refresher.cancelRunning() }
        }
    }

    /// Refreshes `target` on a task of its own, as a client's call does.
    static func refreshing(
        _ target: RefreshTarget, on refresher: WatchlistRefresher, mode: RefreshMode = .due, onProgress: @escaping @Sendable (RefreshProgress) -> Void = { _ in }
    ) -> Task<RefreshSummary, any Error> {
        Task { try await refresher.refresh(target, mode: mode, onProgress: onProgress) }
    }

    static func isMovie(_ id: Int) -> @Sendable (RemoteRequest) -> Bool {
        { request in
            if case .movie(id, _) = request { return true }
            return false
        }
    }

    static func fetches(of id: Int, _ harness: RefresherHarness) async -> Int {
        await harness.remote.requests.filter(isMovie(id)).count
    }

    @Test func aliceRefreshCompletesWhileBobsIsBlockedMidWayAndTheFeedIsReadOnce() async throws {
        let harness = RefresherHarness(totalPages: 1, changeFeed: true)
        try await harness.add("bobs", movies: [7001, 7002], owner: Self.bob)
        try await harness.add("alices", movies: [603], owner: Self.alice)
        await harness.remote.hold(where: Self.isMovie(7002))
        let refresher = harness.refresher
        let bobs = Self.refreshing(RefreshTarget(owners: [Self.bob]), on: refresher)
        await harness.remote.untilHeld(1)

        // Bob's refresh is half-way (7001 fetched, 7002 held): alice's goes through regardless.
        let alices = try await Self.summary(Self.refreshing(RefreshTarget(owners: [Self.alice]), on: refresher), refresher)
        #expect(alices.done == 1 && alices.failed == 0)
        #expect(await harness.remote.heldCount == 1, "bob's is still blocked")
        #expect(await Self.fetches(of: 603, harness) == 1)
        #expect(await harness.changeFeedReads() == 1, "alice's refresh used the feed bob's had just read")

        // What each one sees meanwhile: bob his own run; alice nothing of it.
        let bobSees = await refresher.activity(seenBy: try Self.bobCalling)
        #expect(bobSees.running)
        #expect(bobSees.progress?.done == 1 && bobSees.progress?.total == 2 && bobSees.progress?.watchlist == "bobs")
        let aliceSees = await refresher.activity(seenBy: try Self.aliceCalling)
        #expect(!aliceSees.running && aliceSees.progress == nil)
        #expect(aliceSees.last == alices)
        #expect(await refresher.activity(seenBy: try Self.root).progress?.watchlist == "bobs")

        await harness.remote.release()
        let bobsSummary = try await Self.summary(bobs, refresher)
        #expect(bobsSummary.done == 2)
        #expect(await refresher.runCount == 0)
        #expect(await refresher.activity(seenBy: try Self.aliceCalling).last == alices, "never bob's counts")
        // The runs that went together are over: the next refresh reads the feed again.
        _ = try await refresher.refresh(RefreshTarget(owners: [Self.alice]), mode: .due) { _ in }
        #expect(await harness.changeFeedReads() == 2)
    }

    @Test func aCoveredRequestJoinsTheRunAndAnOverlappingOneWaitsForIt() async throws {
        let harness = RefresherHarness(totalPages: 1)
        try await harness.add("films", movies: [603], owner: Self.alice)
        try await harness.add("docs", movies: [604], owner: Self.alice)
        await harness.remote.hold()
        let refresher = harness.refresher
        let first = Self.refreshing(RefreshTarget(owners: [Self.alice]), on: refresher)
        await harness.remote.untilHeld(1)
        let joined = Self.refreshing(RefreshTarget(owners: [Self.alice], name: "films"), on: refresher)
        try await Self.until { await refresher.callers(ofRunOf: Self.alice) == 2 }
        // Fetching everything again is more than the run does: it waits for it, then runs.
        let everything = Self.refreshing(RefreshTarget(owners: [Self.alice]), on: refresher, mode: .everything)
        try await Self.until { await refresher.runCount == 2 }
        #expect(await harness.remote.heldCount == 1, "the waiting one fetches nothing yet")

        await harness.remote.release()
        let (a, b) = try await (Self.summary(first, refresher), Self.summary(joined, refresher))
        #expect(a == b, "who joins gets the run's summary")
        #expect(a.done == 2)
        let again = try await Self.summary(everything, refresher)
        #expect(again.done == 2)
        let movies = await harness.remote.requests.compactMap { request -> Int? in
            if case .movie(let id, _) = request { return id }
            return nil
        }
        #expect(movies == [604, 603, 604, 603], "one run's worth (docs, films), then the other's after it")
    }

    @Test func rootsRefreshOfEveryListJoinsAUsersRunAndPullsEachAccountOnce() async throws {
        let aliceTMDB = SimulatedTMDBAccount(accountID: 1)
        let bobTMDB = SimulatedTMDBAccount(accountID: 2)
        var bobsState = SimulatedTMDBAccount.State()
        bobsState.watchlist = [9002]
        bobTMDB.setState(bobsState)
        let accounts = AccountDirectory(known: [Self.alice, Self.bob]) { owner in
            let tmdb = owner == Self.alice ? aliceTMDB : bobTMDB
            let session = AccountSession(sessionID: tmdb.openSession(), accountID: tmdb.accountID, username: owner.description)
            return AccountSync(remote: tmdb, storage: InMemoryAccountStorage(), sessions: InMemoryAccountSessionStore(session), owner: owner)
        }
        let harness = RefresherHarness(totalPages: 1, accounts: accounts)
        try await harness.add("films", movies: [603], owner: Self.alice)
        await harness.remote.hold(where: Self.isMovie(603))
        let refresher = harness.refresher
        let alices = Self.refreshing(RefreshTarget(owners: [Self.alice]), on: refresher)
        await harness.remote.untilHeld(1)

        // Bob has no list of his own, only his TMDB watchlist, never pulled yet: root's refresh
        // of every list still goes through it, beside alice's run, which it joins.
        let (steps, sink) = AsyncStream<RefreshProgress>.makeStream()
        let everyones = Self.refreshing(.everything, on: refresher) { sink.yield($0) }
        var stepsOfRoots = steps.makeAsyncIterator()
        let firstStep = await stepsOfRoots.next()
        #expect(firstStep?.step == "movie 9002" && firstStep?.watchlist == AccountPinnedWatchlists.name)
        #expect(await refresher.callers(ofRunOf: Self.alice) == 2, "root's request joined alice's run")

        await harness.remote.release()
        let alicesSummary = try await Self.summary(alices, refresher)
        let all = try await Self.summary(everyones, refresher)
        sink.finish()
        #expect(alicesSummary.done == 1)
        #expect(all.done == 2 && all.failed == 0, "alice's 603 and bob's 9002")
        #expect(await Self.fetches(of: 603, harness) == 1)
        let watchlistPulls = { (tmdb: SimulatedTMDBAccount) in tmdb.requests.filter { $0 == .listPage(.watchlist, 1) }.count }
        #expect(watchlistPulls(aliceTMDB) == 1, "alice's account was pulled by her run only")
        #expect(watchlistPulls(bobTMDB) == 1)
        #expect(await refresher.lastRefresh(of: Self.bob)?.done == 1)
        #expect(await refresher.activity(seenBy: try Self.root).last?.done == 2, "root sees the two runs that went together as one")
        #expect(await refresher.activity(seenBy: try Self.bobCalling).last?.done == 1)
    }

    @Test func statusShowsTheSystemsRefreshToEveryoneAndItsFirstErrorToItsAdministrators() async throws {
        let harness = RefresherHarness(totalPages: 1)
        try await harness.add("shared", movies: [603])
        try await harness.add("mine", movies: [604], owner: Self.alice)
        _ = try await harness.refresher.refresh(RefreshTarget(owners: [Self.alice]), mode: .due) { _ in }
        harness.clock.advance(by: 60)
        await harness.takeDown()
        let system = try await harness.refresher.refresh(RefreshTarget(owners: [.system]), mode: .due) { _ in }
        #expect(system.failed == 1 && system.firstError != nil)

        let aliceSees = try #require(await harness.refresher.activity(seenBy: try Self.aliceCalling).last)
        #expect(aliceSees.failed == 1 && aliceSees.finishedAt == system.finishedAt, "the system's lists are everyone's")
        #expect(aliceSees.firstError == nil, "its first error is the admin group's business")
        #expect(await harness.refresher.activity(seenBy: try Self.carolAdministering).last?.firstError == system.firstError)
        let rootSees = try #require(await harness.refresher.activity(seenBy: try Self.root).last)
        #expect(rootSees.firstError == system.firstError)
        #expect(rootSees.done == 0 && rootSees.failed == 1, "alice's ended a minute before: not the same refresh")
        // Bob sees the system's, never alice's (which he could tell apart by its counts).
        let bobSees = try #require(await harness.refresher.activity(seenBy: try Self.bobCalling).last)
        #expect(bobSees.done == 0 && bobSees.failed == 1)
        #expect(await harness.refresher.activity(seenBy: try Self.nobody).last?.failed == 1)
        #expect(await harness.refresher.lastRefresh(of: Self.alice)?.done == 1)
    }

    /// Issue 31: another user's refresh (when it ran, how many steps: the size of their lists) is
    /// not the last refresh anyone else sees; only what went through the system's lists is.
    @Test func aUsersRefreshIsTheLastOneForThemAndRootOnlyAndOutlivesTheDaemon() async throws {
        let harness = RefresherHarness(totalPages: 1)
        try await harness.add("films", movies: [603])
        try await harness.add("secret", movies: [11, 12], owner: Self.alice)
        let refresher = harness.refresher
        let system = try await refresher.refresh(RefreshTarget(owners: [.system]), mode: .due) { _ in }
        harness.clock.advance(by: 60)
        let hers = try await refresher.refresh(RefreshTarget(owners: [Self.alice]), mode: .due) { _ in }
        #expect(hers.done == 2 && system.done == 1)
        #expect(await refresher.activity(seenBy: try Self.bobCalling).last == system, "bob sees the system lists' refresh, not alice's")
        #expect(await refresher.activity(seenBy: try Self.nobody).last == system)
        #expect(await refresher.activity(seenBy: try Self.aliceCalling).last == hers)
        #expect(await refresher.activity(seenBy: try Self.root).last == hers)
        // Each owner's last refresh outlives the daemon, and is still shown only to whom it was.
        #expect(try await harness.history.lastRefreshes() == [.system: system, Self.alice: hers])
        let restarted = RefresherHarness(totalPages: 1, history: harness.history)
        #expect(await restarted.refresher.activity(seenBy: try Self.bobCalling).last == system)
        #expect(await restarted.refresher.activity(seenBy: try Self.aliceCalling).last == hers)
    }

    @Test func aRefreshThatFoundNoListIsTheAskersAlone() async throws {
        let harness = RefresherHarness(totalPages: 1)
        try await harness.add("films", movies: [603])
        let refresher = harness.refresher
        let system = try await refresher.refresh(RefreshTarget(owners: [.system]), mode: .due) { _ in }
        harness.clock.advance(by: 60)
        // Bob has no list: his refresh goes through nothing, and is his alone to know of.
        let his = try await refresher.refresh(RefreshTarget(owners: [Self.bob]), mode: .due) { _ in }
        #expect(his.done == 0)
        #expect(await refresher.activity(seenBy: try Self.bobCalling).last == his)
        #expect(await refresher.activity(seenBy: try Self.aliceCalling).last == system)
    }

    @Test func anAdministratorsRefreshOfTheSystemListsIsEveryones() async throws {
        let harness = RefresherHarness(totalPages: 1)
        try await harness.add("films", movies: [603])
        // The timer's refresh (the moviesd user): the system's lists and its own, which it has none of.
        let timer = try await harness.refresher.refresh(RefreshTarget(owners: [.system, .user(LocalUser(uid: 999))]), mode: .due) { _ in }
        #expect(await harness.refresher.activity(seenBy: try Self.aliceCalling).last == timer)
        #expect(await harness.refresher.activity(seenBy: try Self.nobody).last == timer)
    }

    @Test func shutdownCancelsEveryRunGoingOrWaiting() async throws {
        let harness = RefresherHarness(totalPages: 1)
        try await harness.add("films", movies: [603, 604], owner: Self.alice)
        try await harness.add("films", movies: [7001, 7002], owner: Self.bob)
        await harness.remote.hold()
        let refresher = harness.refresher
        let alices = Self.refreshing(RefreshTarget(owners: [Self.alice]), on: refresher)
        let bobs = Self.refreshing(RefreshTarget(owners: [Self.bob]), on: refresher)
        await harness.remote.untilHeld(2)
        let waiting = Self.refreshing(RefreshTarget(owners: [Self.alice]), on: refresher, mode: .everything)
        try await Self.until { await refresher.runCount == 3 }

        await refresher.cancelRunning()
        for task in [alices, bobs, waiting] {
            await #expect(throws: CancellationError.self) { try await task.value }
        }
        #expect(await refresher.runCount == 0)
        #expect(await harness.remote.requests.count == 2, "nothing after the two held fetches")
        #expect(await refresher.activity(seenBy: try Self.root).last == nil, "no run finished")
    }
}
