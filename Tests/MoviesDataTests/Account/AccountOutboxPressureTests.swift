import FoundationEssentials
@testable import MoviesData
import MoviesDomain
import MoviesTestSupport
import Networking
import Testing

/// Issue 45: the outbox under pressure. A TMDB that fails slowly sees one write per back-off step
/// and an edit never waits for other edits; retry times run on the monotonic clock, so a wall
/// clock stepping back or far forward neither stalls nor floods the outbox. Time is virtual: the
/// remote's latency and every wait come from the injected `TestClock`.
@Suite struct AccountOutboxPressureTests {
    /// TMDB's account, answering each call after `latency` seconds of the test's clock.
    final class SlowAccount: AccountRemote {
        let account = SimulatedTMDBAccount()
        let clock: TestClock
        let latency: Double

        init(clock: TestClock, latency: Double) {
            self.clock = clock
            self.latency = latency
        }

        func createRequestToken() async throws -> AccountRequestToken { try await account.createRequestToken() }
        func createSession(requestToken: String) async throws -> String { try await account.createSession(requestToken: requestToken) }
        func deleteSession(_ sessionID: String) async throws { try await account.deleteSession(sessionID) }
        func accountDetails(sessionID: String) async throws -> (id: Int, username: String?) { try await account.accountDetails(sessionID: sessionID) }
        func listPage(_ list: AccountList, session: AccountSession, page: Int) async throws -> AccountListPage {
            try await clock.sleep(latency)
            return try await account.listPage(list, session: session, page: page)
        }
        func send(_ edit: AccountEdit, session: AccountSession) async throws -> Int {
            try await clock.sleep(latency)
            return try await account.send(edit, session: session)
        }

        var writes: Int { account.requests.count { if case .write = $0 { true } else { false } } }
    }

    static func sync(_ remote: any AccountRemote, _ account: SimulatedTMDBAccount, clock: TestClock, storage: any AccountStorage = InMemoryAccountStorage()) -> AccountSync {
        AccountSync(
            remote: remote, storage: storage,
            sessions: InMemoryAccountSessionStore(AccountSession(sessionID: account.openSession(), accountID: account.accountID, username: "u")),
            now: clock.now, time: clock.timeSource)
    }

    static func edit(_ id: Int) throws -> AccountEdit { try AccountEdit(movieID: id, change: .watchlist(true)) }

    /// The 99th percentile of `values`.
    static func p99(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
    }

    /// Makes 60 edits of distinct movies, one every 0.2 s; returns each call's time.
    static func sixtyEdits(_ sync: AccountSync, clock: TestClock, between: () async -> Void = {}) async throws -> [Double] {
        var times: [Double] = []
        for index in 0..<60 {
            let started = clock.seconds
            let result = try await sync.apply(try edit(1000 + index), waitSeconds: nil)
            times.append(clock.seconds - started)
            #expect(result.entry.state == .pending)
            clock.advance(by: 0.2)
            await between()
        }
        return times
    }

    @Test func withTMDBAnswering500After100msEditsReturnWithinOneAttemptAndTMDBSeesNoBurst() async throws {
        let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
        let remote = SlowAccount(clock: clock, latency: 0.1)
        remote.account.setFault { call in if case .write = call { return .serverError } else { return .none } }
        let sync = Self.sync(remote, remote.account, clock: clock)
        let times = try await Self.sixtyEdits(sync, clock: clock) { await sync.runIfDue() }
        #expect(Self.p99(times) <= 0.15, "p99 \(Self.p99(times)) s")
        #expect(remote.writes <= 2 * 60)
        // 60 edits over 18 s of a failing TMDB: the first edit, then one probe per back-off step
        // (2, 4, 8 s…), whether an edit or the service loop sends it.
        #expect(remote.writes <= 5, "\(remote.writes) writes")
        #expect(try await sync.pending().count == 60, "every edit is kept")
        // TMDB heals: the next probe sends everything, in order.
        remote.account.setFault { _ in .none }
        let settled = try await sync.sync(waitSeconds: 60)
        #expect(settled.pending == 0)
        #expect(remote.account.state.watchlist == Array(1000..<1060))
    }

    @Test func twoThousandPendingEditsOfOneUserCostAFailingTMDBOneWritePerStepAndDoNotSlowAnotherUser() async throws {
        let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
        let alice = SlowAccount(clock: clock, latency: 0.1)
        let bob = SlowAccount(clock: clock, latency: 0.1)
        for remote in [alice, bob] { remote.account.setFault { call in if case .write = call { return .serverError } else { return .none } } }
        let storage = InMemoryAccountStorage()
        for index in 0..<2000 { _ = await storage.enqueue(try Self.edit(1 + index), accountID: alice.account.accountID, at: clock.date) }
        let aliceSync = Self.sync(alice, alice.account, clock: clock, storage: storage)
        let bobSync = Self.sync(bob, bob.account, clock: clock)
        // Alice's outbox drains while TMDB fails: one write, then it backs off.
        _ = try await aliceSync.sync(waitSeconds: nil)
        #expect(alice.writes == 1, "a failing TMDB sees the probe, not 2,000 writes")
        let times = try await Self.sixtyEdits(bobSync, clock: clock) { await aliceSync.runIfDue() }
        #expect(Self.p99(times) <= 0.15, "bob's p99 \(Self.p99(times)) s")
        #expect(alice.writes <= 6, "one probe per back-off step: \(alice.writes)")
        #expect(bob.writes <= 5)
    }

    @Test func aNewEditGoesBeforeABacklogItDoesNotDependOn() async throws {
        let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
        let remote = SlowAccount(clock: clock, latency: 0.1)
        let storage = InMemoryAccountStorage()
        for index in 0..<50 { _ = await storage.enqueue(try Self.edit(100 + index), accountID: remote.account.accountID, at: clock.date) }
        _ = await storage.enqueue(try AccountEdit(movieID: 7, change: .favorite(true)), accountID: remote.account.accountID, at: clock.date)
        let sync = Self.sync(remote, remote.account, clock: clock, storage: storage)
        // A new edit of movie 7 goes after the backlog's edit of movie 7, before the rest.
        let result = try await sync.apply(try AccountEdit(movieID: 7, change: .rating(8)), waitSeconds: nil)
        #expect(result.isOnTMDB, "\(result.entry)")
        let writes = remote.account.requests.compactMap { call -> AccountEdit? in if case .write(let edit) = call { edit } else { nil } }
        let ratingAt = try #require(writes.firstIndex { $0.list == .rated })
        let favouriteAt = try #require(writes.firstIndex { $0.list == .favorite })
        #expect(favouriteAt < ratingAt, "the same movie's earlier edit first")
        #expect(ratingAt <= 9, "sent next, not after the 50 others (at \(ratingAt))")
    }

    /// An edit made while TMDB cannot be reached, then the wall clock steps by `step` seconds (after
    /// the failure; or before it and back after it) and TMDB heals: returns how long the edit took
    /// to reach TMDB on the monotonic clock, doing what the service loop does (sleep until the next
    /// work is due, then a pass).
    static func secondsToDeliveryAfterAStep(_ step: Double, stepBeforeTheFailure: Bool) async throws -> Double? {
        let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
        let tmdb = SimulatedTMDBAccount()
        tmdb.setFault { _ in .transport }
        let sync = Self.sync(tmdb, tmdb, clock: clock)
        _ = try await sync.sync(waitSeconds: nil)
        if stepBeforeTheFailure { clock.set(clock.date.addingTimeInterval(step)) }
        let result = try await sync.apply(try Self.edit(603), waitSeconds: nil)
        #expect(result.entry.state == .pending)
        clock.set(clock.date.addingTimeInterval(stepBeforeTheFailure ? -step : step))
        tmdb.setFault { _ in .none }
        let healed = clock.seconds
        while clock.seconds - healed < 3600, tmdb.state.watchlist.isEmpty {
            clock.advance(by: await sync.secondsUntilNextWork())
            await sync.runIfDue()
        }
        return tmdb.state.watchlist == [603] ? clock.seconds - healed : nil
    }

    @Test(arguments: [-3600.0, 400 * 86400.0])
    func aWallClockStepNeitherStallsNorDelaysTheOutbox(step: Double) async throws {
        // An hour back; or 400 days ahead (a bad RTC) while the edit fails, then back (NTP).
        let seconds = try #require(try await Self.secondsToDeliveryAfterAStep(step, stepBeforeTheFailure: step > 0))
        #expect(seconds <= 5, "delivered \(seconds) s after TMDB healed")
    }

    @Test func aRetryTimeStoredByAnEarlierRunFarAheadIsDueAtTheStart() async throws {
        let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
        let tmdb = SimulatedTMDBAccount()
        let storage = InMemoryAccountStorage()
        let entry = await storage.enqueue(try Self.edit(603), accountID: tmdb.accountID, at: clock.date)
        // The last run had a clock 400 days ahead.
        await storage.markFailed(entry.id, error: "offline", nextAttemptAt: clock.date.addingTimeInterval(400 * 86400 + 8))
        let sync = Self.sync(tmdb, tmdb, clock: clock, storage: storage)
        await sync.runIfDue()
        #expect(tmdb.state.watchlist == [603])
    }
}
