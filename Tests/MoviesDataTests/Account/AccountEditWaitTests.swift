import FoundationEssentials
@testable import MoviesData
import MoviesDomain
import MoviesTestSupport
import Synchronization
import Testing

/// Issue 27: an edit is durable, then returns; it waits for TMDB only while TMDB answers, a failed
/// first attempt returns "pending" at once, and a write is delivered only when TMDB's answer says so.
@Suite struct AccountEditWaitTests {
    /// An account whose writes wait until `release()` (TMDB hanging), everything else simulated.
    final class HangingWrites: AccountRemote {
        let account = SimulatedTMDBAccount()
        private let held = Mutex<[CheckedContinuation<Void, Never>]>([])
        private let writesStarted = Mutex(0)

        var started: Int { writesStarted.withLock { $0 } }

        func release() {
            for waiter in held.withLock({ all in defer { all = [] }; return all }) { waiter.resume() }
        }

        func createRequestToken() async throws -> AccountRequestToken { try await account.createRequestToken() }
        func createSession(requestToken: String) async throws -> String { try await account.createSession(requestToken: requestToken) }
        func deleteSession(_ sessionID: String) async throws { try await account.deleteSession(sessionID) }
        func accountDetails(sessionID: String) async throws -> (id: Int, username: String?) { try await account.accountDetails(sessionID: sessionID) }
        func listPage(_ list: AccountList, session: AccountSession, page: Int) async throws -> AccountListPage {
            try await account.listPage(list, session: session, page: page)
        }
        func send(_ edit: AccountEdit, session: AccountSession) async throws -> Int {
            writesStarted.withLock { $0 += 1 }
            await withCheckedContinuation { waiter in held.withLock { $0.append(waiter) } }
            return try await account.send(edit, session: session)
        }
    }

    static func edit(_ id: Int) throws -> AccountEdit { try AccountEdit(movieID: id, change: .watchlist(true)) }

    /// Lists that fail to load say nothing of the writes: each delivered edit starts a pull that
    /// fails at once, and every next edit is still sent at once and its caller told "on TMDB"
    /// (neither paused by the failed pulls nor dropped by a pass that ends as it is queued).
    @Test func editsMadeWhilePullsFailAtOnceAreEachAnsweredOnTMDB() async throws {
        let tmdb = SimulatedTMDBAccount()
        tmdb.setFault { call in if case .listPage = call { return .serverError } else { return .none } }
        let sync = AccountSync(
            remote: tmdb, storage: InMemoryAccountStorage(),
            sessions: InMemoryAccountSessionStore(AccountSession(sessionID: tmdb.openSession(), accountID: tmdb.accountID, username: "u")))
        var pending: [Int] = []
        for id in 1...400 {
            let result = try await sync.apply(try AccountEdit(movieID: id, change: id.isMultiple(of: 2) ? .favorite(true) : .watchlist(true)), waitSeconds: nil)
            if !result.isOnTMDB { pending.append(id) }
        }
        #expect(pending.isEmpty, "told pending although TMDB takes writes: \(pending.count) of 400 (\(pending.prefix(5)))")
    }

    @Test func aFailedFirstAttemptReturnsPendingAtOnceAndLaterEditsDoNotTryAFailingTMDB() async throws {
        let tmdb = SimulatedTMDBAccount()
        tmdb.setFault { call in if case .write = call { return .serverError } else { return .none } }
        let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
        let sync = AccountSync(
            remote: tmdb, storage: InMemoryAccountStorage(),
            sessions: InMemoryAccountSessionStore(AccountSession(sessionID: tmdb.openSession(), accountID: tmdb.accountID, username: "u")),
            now: clock.now, time: clock.timeSource)
        let started = clock.date
        let first = try await sync.apply(try Self.edit(1), waitSeconds: nil)
        #expect(first.entry.state == .pending && first.entry.attempts == 1, "one attempt, then the reply")
        #expect(first.sync.activity == .offline, "a 500 backs off the whole outbox")
        for id in 2...5 {
            let result = try await sync.apply(try Self.edit(id), waitSeconds: nil)
            #expect(result.entry.state == .pending)
            #expect(result.entry.attempts == 0, "answered at once while the outbox backs off")
            #expect(result.isOnTMDB == false)
        }
        let writes = tmdb.requests.filter { if case .write = $0 { return true } else { return false } }
        #expect(writes.count == 1, "TMDB failing sees one write, not one per edit")
        #expect(clock.date == started, "nothing waited")
    }

    @Test func whileTMDBHangsAnEditReturnsPendingOnceTheWriteIsSlowAndLaterEditsDoNotWait() async throws {
        let remote = HangingWrites()
        let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
        var settings = AccountSync.Settings()
        settings.notAnsweringAfterSeconds = 1
        let sync = AccountSync(
            remote: remote, storage: InMemoryAccountStorage(),
            sessions: InMemoryAccountSessionStore(AccountSession(sessionID: remote.account.openSession(), accountID: remote.account.accountID, username: "u")),
            settings: settings, now: clock.now, time: clock.timeSource)
        // The virtual sleep returns at once: the write is "slow" as soon as it starts.
        let first = try await sync.apply(try Self.edit(1), waitSeconds: nil)
        #expect(first.entry.state == .pending)
        #expect(first.entry.attempts == 0, "returned while the write hangs")
        for id in 2...4 {
            let next = try await sync.apply(try Self.edit(id), waitSeconds: nil)
            #expect(next.entry.state == .pending)
        }
        #expect(remote.account.writes == 0, "nothing reached TMDB yet")
        #expect(remote.started >= 1)
        remote.release()
        // Each edit is in the outbox, and goes to TMDB once it answers.
        #expect(try await sync.pending().count == 4)
    }

    @Test func anEditDoesNotWaitWhileTMDBIsKnownToBeDown() async throws {
        let remote = HangingWrites()
        let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
        let health = RemoteHealth(now: clock.now, randomUnit: { 0.5 })
        await health.recordFailure(MoviesError(code: .remoteUnavailable, message: "TMDB did not answer within 3 s"))
        let sync = AccountSync(
            remote: remote, storage: InMemoryAccountStorage(),
            sessions: InMemoryAccountSessionStore(AccountSession(sessionID: remote.account.openSession(), accountID: remote.account.accountID, username: "u")),
            now: clock.now, time: clock.timeSource, health: health)
        // No slow mark configured: only the shared health says TMDB is not answering.
        let result = try await sync.apply(try Self.edit(1), waitSeconds: nil)
        #expect(result.entry.state == .pending)
        #expect(result.entry.attempts == 0)
        remote.release()
    }

    @Test func anExplicitSyncThatReachesTMDBEndsTheCachesPause() async throws {
        let tmdb = SimulatedTMDBAccount()
        let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
        let health = RemoteHealth(now: clock.now, randomUnit: { 0.5 })
        await health.recordFailure(MoviesError(code: .remoteUnavailable, message: "TMDB refused the connection"))
        #expect(await health.isPaused())
        let sync = AccountSync(
            remote: tmdb, storage: InMemoryAccountStorage(),
            sessions: InMemoryAccountSessionStore(AccountSession(sessionID: tmdb.openSession(), accountID: tmdb.accountID, username: "u")),
            now: clock.now, time: clock.timeSource, health: health)
        _ = try await sync.sync(waitSeconds: nil)
        #expect(await health.remoteStatus().state == .online)
        #expect(await health.isPaused() == false)
    }

    @Test func aWriteAnsweredWithoutConfirmationStaysPendingAndIsSentAgain() async throws {
        let tmdb = SimulatedTMDBAccount()
        tmdb.setFault { call in if case .write = call { return .unconfirmedAnswer } else { return .none } }
        let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
        let sync = AccountSync(
            remote: tmdb, storage: InMemoryAccountStorage(),
            sessions: InMemoryAccountSessionStore(AccountSession(sessionID: tmdb.openSession(), accountID: tmdb.accountID, username: "u")),
            now: clock.now, time: clock.timeSource)
        let result = try await sync.apply(try Self.edit(603), waitSeconds: nil)
        #expect(result.entry.state == .pending)
        #expect(result.isOnTMDB == false)
        let status = try await sync.sync(waitSeconds: nil)
        #expect(status.pending == 1)
        #expect(status.unconfirmed == 0, "never recorded delivered")
        #expect(status.isSettled == false)
        // Once TMDB confirms, it is delivered.
        tmdb.setFault { _ in .none }
        let settled = try await sync.sync(waitSeconds: 60)
        #expect(settled.isSettled)
        #expect(tmdb.state.watchlist == [603])
    }
}
