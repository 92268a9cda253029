import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Synchronization
import Testing

/// The account's two-way sync over a simulated TMDB account: the outbox's order and compaction,
/// each class of TMDB answer, the rating side effect, and the lists never losing an edit TMDB has
/// not confirmed.
@Suite struct AccountSyncTests {
    struct Harness {
        let tmdb: SimulatedTMDBAccount
        let storage = InMemoryAccountStorage()
        let sessions: InMemoryAccountSessionStore
        let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
        let sync: AccountSync

        init(knownMovies: Set<Int>? = nil, signedIn: Bool = true, sendsEditsAtOnce: Bool = true) {
            let tmdb = SimulatedTMDBAccount(knownMovies: knownMovies)
            self.tmdb = tmdb
            sessions = InMemoryAccountSessionStore(signedIn ? AccountSession(sessionID: tmdb.openSession(), accountID: tmdb.accountID, username: "sim-user") : nil)
            let clock = clock
            var settings = AccountSync.Settings()
            settings.sendsEditsAtOnce = sendsEditsAtOnce
            sync = AccountSync(
                remote: tmdb, storage: storage, sessions: sessions, settings: settings, now: clock.now,
                time: clock.timeSource)
        }

        /// Records `edit` without waiting for TMDB.
        @discardableResult
        func edit(_ id: Int, _ change: AccountEdit.Change) async throws -> AccountEditResult {
            try await sync.apply(try AccountEdit(movieID: id, change: change), waitSeconds: 0)
        }
    }

    @Test func editsMadeOfflineReachTMDBInOrderWhenItIsBack() async throws {
        let harness = Harness()
        harness.tmdb.setFault { _ in .transport }
        try await harness.edit(1, .watchlist(true))
        try await harness.edit(2, .favorite(true))
        try await harness.edit(3, .rating(7.5))
        let offline = try await harness.sync.sync(waitSeconds: nil)
        #expect(offline.pending == 3)
        #expect(offline.activity == .offline)
        #expect(harness.tmdb.writes == 0)
        // The lists show the edits at once, offline.
        let view = try await harness.sync.view()
        #expect(view.items(.watchlist).map(\.movieID) == [1])
        #expect(view.items(.watchlist).allSatisfy { $0.pending })
        #expect(view.items(.rated).first?.rating == 7.5)

        harness.tmdb.setFault { _ in .none }
        let settled = try await harness.sync.sync(waitSeconds: 60)
        #expect(settled.isSettled)
        #expect(settled.activity == .idle)
        let writes = harness.tmdb.requests.compactMap { call -> Int? in
            if case .write(let edit) = call { return edit.movieID }
            return nil
        }
        #expect(writes.suffix(3) == [1, 2, 3])
        #expect(harness.tmdb.state.watchlist == [1])
        #expect(harness.tmdb.state.favorites == [2])
        #expect(harness.tmdb.state.ratings == [3: 7.5])
        #expect(try await harness.sync.pending().isEmpty)
    }

    @Test func supersededOfflineTogglesCostOneRequestPerMovie() async throws {
        // Edits start no pass of their own here: a pass started by an early toggle and still
        // running when TMDB comes back would send a superseded state (a race, not the rule).
        let harness = Harness(sendsEditsAtOnce: false)
        harness.tmdb.setFault { _ in .transport }
        var expected: [Int: Bool] = [:]
        for step in 0..<50 {
            let movie = 10 + step % 5
            let on = (step / 5) % 2 == 0
            try await harness.edit(movie, .watchlist(on))
            expected[movie] = on
        }
        let failedBefore = harness.tmdb.requests.count
        harness.tmdb.setFault { _ in .none }
        _ = try await harness.sync.sync(waitSeconds: 60)
        let writes = harness.tmdb.requests.dropFirst(failedBefore).filter { if case .write = $0 { return true } else { return false } }
        #expect(writes.count <= 5)
        #expect(Set(harness.tmdb.state.watchlist) == Set(expected.filter(\.value).keys))
    }

    @Test func aRefusedSessionPausesTheOutboxAndKeepsEveryEditUntilTheNextSignIn() async throws {
        let harness = Harness()
        harness.tmdb.expireSessions()
        let first = try await harness.edit(1, .watchlist(true))
        _ = try await harness.sync.sync(waitSeconds: nil)
        try await harness.edit(2, .watchlist(true))
        let blocked = try await harness.sync.status()
        #expect(blocked.activity == .blockedOnAuth)
        #expect(blocked.pending == 2)
        #expect(first.entry.state == .pending || first.entry.state == .blockedOnAuth)
        let requestsWhileBlocked = harness.tmdb.requests.count
        let again = try await harness.sync.sync(waitSeconds: 30)
        #expect(again.activity == .blockedOnAuth)
        #expect(harness.tmdb.requests.count == requestsWhileBlocked, "nothing is sent while the session is refused")
        #expect(try await harness.sync.pending().allSatisfy { $0.state == .blockedOnAuth })

        // Sign in again: request token, approval, session; the kept edits go out.
        let waiting = try await harness.sync.login()
        #expect(waiting.approvalURL?.hasPrefix("https://www.themoviedb.org/authenticate/") == true)
        #expect(try await harness.sync.login().isSignedIn == false, "not approved yet: still waiting")
        harness.tmdb.approveAll()
        let signedIn = try await harness.sync.login()
        #expect(signedIn.accountID == harness.tmdb.accountID)
        #expect(harness.sessions.current?.sessionID != nil)
        let settled = try await harness.sync.sync(waitSeconds: 60)
        #expect(settled.isSettled)
        #expect(harness.tmdb.state.watchlist == [1, 2])
    }

    /// An edit that failed in an outage and is then held back by a refused session says the
    /// session is why (`movies pending`), not the outage of its last attempt.
    @Test func anEditHeldBackByARefusedSessionSaysSoNotItsLastAttemptsError() async throws {
        let harness = Harness()
        harness.tmdb.setFault { _ in .transport }
        try await harness.edit(1, .watchlist(true))
        _ = try await harness.sync.sync(waitSeconds: nil)
        let failed = try #require(try await harness.sync.pending().first)
        #expect(failed.attempts > 0 && failed.lastError != nil)
        #expect(failed.lastError?.contains("session") == false)
        harness.tmdb.setFault { _ in .none }
        harness.tmdb.expireSessions()
        _ = try await harness.sync.sync(waitSeconds: 30)
        let held = try #require(try await harness.sync.pending().first)
        #expect(held.state == .blockedOnAuth)
        #expect(held.lastError?.contains("TMDB refused the session") == true, "\(held.lastError ?? "no reason")")
    }

    @Test func aRefusedEditIsDroppedAndUndoneAloneWithItsReasonKept() async throws {
        let harness = Harness(knownMovies: [1, 2])
        try await harness.edit(404_404, .watchlist(true))
        try await harness.edit(1, .watchlist(true))
        try await harness.edit(2, .rating(6))
        let status = try await harness.sync.sync(waitSeconds: 60)
        #expect(status.rejected == 1)
        #expect(status.isSettled)
        #expect(harness.tmdb.state.watchlist == [1])
        #expect(harness.tmdb.state.ratings == [2: 6])
        let view = try await harness.sync.view()
        #expect(view.items(.watchlist).map(\.movieID) == [1], "the refused add is undone")
        let rejected = try await harness.sync.pending().filter { $0.state == .rejected }
        #expect(rejected.map(\.edit.movieID) == [404_404])
        #expect(rejected.first?.lastError?.contains("34") == true)
        #expect(try await harness.sync.dismissRejected() == 1)
        #expect(try await harness.sync.pending().isEmpty)
    }

    @Test func anEntryTMDBKeepsFailingWaitsAloneWhileOtherMoviesGoThrough() async throws {
        let harness = Harness()
        // TMDB answers, but never confirms the writes of movie 5: a failure of that entry alone.
        harness.tmdb.setFault { call in
            if case .write(let edit) = call, edit.movieID == 5 { return .unconfirmedAnswer }
            return .none
        }
        try await harness.edit(5, .watchlist(true))
        try await harness.edit(6, .watchlist(true))
        try await harness.edit(5, .favorite(true))
        _ = try await harness.sync.sync(waitSeconds: nil)
        #expect(harness.tmdb.state.watchlist == [6])
        let pending = try await harness.sync.pending()
        let five = pending.filter { $0.edit.movieID == 5 }
        #expect(five.count == 2)
        #expect(five.allSatisfy { $0.state == .pending })
        #expect(five.first?.nextAttemptAt != nil, "backs off")
        let writesOfFive = harness.tmdb.requests.filter { if case .write(let edit) = $0 { return edit.movieID == 5 } else { return false } }
        #expect(writesOfFive.count == 2, "sent when made, and again when the user asked to sync")
        #expect(harness.tmdb.requests.allSatisfy { if case .write(let edit) = $0, edit.movieID == 5 { return edit.list == .watchlist } else { return true } },
                "the later edit of the same movie waits behind the failing one")
    }

    @Test func ratingAMovieTakesItOffTheWatchlistHereAsOnTMDB() async throws {
        let harness = Harness()
        harness.tmdb.setFault { _ in .transport }
        try await harness.edit(7, .watchlist(true))
        try await harness.edit(7, .rating(8.5))
        let offline = try await harness.sync.view()
        #expect(offline.items(.watchlist).isEmpty)
        #expect(offline.items(.rated).map(\.movieID) == [7])
        harness.tmdb.setFault { _ in .none }
        _ = try await harness.sync.sync(waitSeconds: 60)
        #expect(harness.tmdb.state.watchlist.isEmpty)
        #expect(harness.tmdb.state.ratings == [7: 8.5])
        #expect(try await harness.sync.view().items(.watchlist).isEmpty)
    }

    @Test func aRatingRemovedBeforeItWasSentStillTakesTheMovieOffTheWatchlist() async throws {
        let harness = Harness()
        var onTMDB = SimulatedTMDBAccount.State()
        onTMDB.watchlist = [4]
        harness.tmdb.setState(onTMDB)
        harness.tmdb.setFault { _ in .transport }
        try await harness.edit(4, .rating(3))
        try await harness.edit(4, .rating(nil))
        #expect(try await harness.sync.pending().map(\.edit) == [try AccountEdit(movieID: 4, change: .watchlist(false)), try AccountEdit(movieID: 4, change: .rating(nil))])
        harness.tmdb.setFault { _ in .none }
        _ = try await harness.sync.sync(waitSeconds: 60)
        #expect(harness.tmdb.state.watchlist.isEmpty, "rate then unrate leaves it off the watchlist, as TMDB would")
        #expect(harness.tmdb.state.ratings.isEmpty)
    }

    @Test func aDeliveredRatingUndoneWhileTheListsCannotBeReadIsConfirmedByTheNextPull() async throws {
        let harness = Harness()
        // TMDB takes writes but cannot list the account for a while.
        harness.tmdb.setFault { call in if case .listPage = call { return .serverError } else { return .none } }
        for change: AccountEdit.Change in [.watchlist(true), .rating(7), .rating(nil)] {
            let result = try await harness.sync.apply(try AccountEdit(movieID: 550, change: change), waitSeconds: 30)
            #expect(result.entry.state == .delivered, "TMDB took \(change)")
        }
        #expect(harness.tmdb.state.watchlist.isEmpty, "TMDB took 550 off the watchlist when it was rated")
        #expect(harness.tmdb.state.ratings.isEmpty)
        // The delivered rating is kept: without it nothing explains why 550 left the watchlist.
        #expect(try await harness.sync.pending().map(\.edit.list) == [.watchlist, .rated, .rated])

        harness.tmdb.setFault { _ in .none }
        let started = harness.clock.now()
        let status = try await harness.sync.sync(waitSeconds: 30)
        #expect(status.isSettled && status.unconfirmed == 0 && status.pending == 0, "\(status)")
        #expect(harness.clock.now().timeIntervalSince(started) < 30)
        let view = try await harness.sync.view()
        #expect(view.items(.watchlist).isEmpty && view.items(.rated).isEmpty, "the view is TMDB's lists")
        #expect(try await harness.sync.pending().isEmpty)
    }

    @Test func aPullThatDoesNotShowADeliveredEditYetDoesNotMakeItFlickerAway() async throws {
        let harness = Harness()
        // TMDB's lists lag behind its writes: the pull after the delivery does not list 9 yet.
        harness.tmdb.setListedState(SimulatedTMDBAccount.State())
        try await harness.edit(9, .watchlist(true))
        let lagging = try await harness.sync.sync(waitSeconds: nil)
        #expect(harness.tmdb.state.watchlist == [9])
        #expect(lagging.unconfirmed == 1)
        #expect(try await harness.sync.view().items(.watchlist).map(\.movieID) == [9])
        // Once TMDB lists it, the entry is confirmed and leaves the outbox.
        harness.tmdb.setListedState(nil)
        let confirmed = try await harness.sync.sync(waitSeconds: nil)
        #expect(confirmed.isSettled)
        #expect(try await harness.sync.pending().isEmpty)
        #expect(try await harness.sync.view().items(.watchlist).map { ($0.movieID, $0.pending) }.elementsEqual([(9, false)], by: ==))
    }

    @Test func anEditOnTheWebsiteWinsOverADeliveredEditOnceTheGraceIsOver() async throws {
        let harness = Harness()
        harness.tmdb.setListedState(SimulatedTMDBAccount.State())
        try await harness.edit(9, .watchlist(true))
        _ = try await harness.sync.sync(waitSeconds: nil)
        #expect(try await harness.sync.status().unconfirmed == 1)
        // Someone took it off on the website; after the grace, TMDB's lists win.
        harness.tmdb.setState(SimulatedTMDBAccount.State())
        harness.tmdb.setListedState(nil)
        harness.clock.advance(by: 601)
        let status = try await harness.sync.sync(waitSeconds: nil)
        #expect(status.isSettled)
        #expect(try await harness.sync.view().items(.watchlist).isEmpty)
    }

    @Test func editsNeedASignIn() async throws {
        let harness = Harness(signedIn: false)
        await #expect(throws: MoviesError.notSignedIn()) { try await harness.edit(1, .watchlist(true)) }
        #expect(try await harness.sync.status().activity == .signedOut)
    }

    @Test func signingOutKeepsTheOutboxForTheNextSignIn() async throws {
        let harness = Harness()
        harness.tmdb.setFault { call in if case .write = call { return .transport } else { return .none } }
        try await harness.edit(3, .favorite(true))
        #expect(try await harness.sync.logout() == 1)
        #expect(harness.sessions.current == nil)
        #expect(try await harness.sync.pending().count == 1, "the lists and outbox stay readable")
        let kept = try await harness.sync.view()
        #expect(kept.signedIn == false && kept.items(.favorite).map(\.movieID) == [3], "the lists as they were, said to be signed out")
        harness.tmdb.setFault { _ in .none }
        _ = try await harness.sync.login()
        harness.tmdb.approveAll()
        #expect(try await harness.sync.login().isSignedIn)
        #expect(try await harness.sync.view().signedIn)
        _ = try await harness.sync.sync(waitSeconds: 60)
        #expect(harness.tmdb.state.favorites == [3])
    }

    @Test func anAnswerLostAfterTMDBAppliedTheEditIsSentAgainHarmlessly() async throws {
        let harness = Harness()
        let dropped = Mutex(false)
        harness.tmdb.setFault { call in
            guard case .write = call else { return .none }
            return dropped.withLock { done in defer { done = true }; return done ? .none : .dropAfterApply }
        }
        try await harness.edit(4, .rating(9))
        let status = try await harness.sync.sync(waitSeconds: 60)
        #expect(status.isSettled)
        #expect(harness.tmdb.writes == 2)
        #expect(harness.tmdb.state.ratings == [4: 9])
    }

    @Test(arguments: [
        (1, AccountFailure.alreadyApplied, 8), (200, .alreadyApplied, 21), (200, .alreadyApplied, 40),
        (401, .auth, 3), (401, .auth, 7), (401, .auth, 10), (401, .auth, 14), (401, .auth, 16), (401, .auth, 17), (401, .auth, 33),
        (401, .auth, 35), (401, .auth, 36), (404, .auth, 37), (401, .auth, 38), (403, .auth, 45),
        (422, .reject, 5), (404, .reject, 6), (400, .reject, 18), (404, .reject, 34), (500, .reject, 44), (400, .reject, 47),
        (503, .retry(isGlobal: true, afterSeconds: nil), 9), (429, .retry(isGlobal: true, afterSeconds: nil), 25),
        (503, .retry(isGlobal: true, afterSeconds: nil), 46), (500, .retry(isGlobal: true, afterSeconds: nil), 11),
        (500, .retry(isGlobal: true, afterSeconds: nil), 15), (504, .retry(isGlobal: true, afterSeconds: nil), 24),
        (502, .retry(isGlobal: true, afterSeconds: nil), 43), (200, .retry(isGlobal: false, afterSeconds: nil), 0),
    ] as [(Int, AccountFailure, Int)])
    func tmdbCodesAreClassifiedAsTheNotesSay(status: Int, expected: AccountFailure, code: Int) {
        let error = MoviesError(code: status >= 500 || status == 429 ? .remoteUnavailable : .remoteRejected, message: "x", httpStatus: status, tmdbCode: code)
        #expect(AccountFailure.classify(error) == expected)
    }

    @Test func failuresWithoutAnAnswerAreRetriedLater() {
        #expect(AccountFailure.classify(MoviesError(code: .remoteUnavailable, message: "refused")) == .retry(isGlobal: true, afterSeconds: nil))
        #expect(AccountFailure.classify(MoviesError(code: .cancelled, message: "stop")) == .cancelled)
        #expect(AccountFailure.classify(MoviesError(code: .remoteRejected, message: "?", httpStatus: 401)) == .auth)
    }
}
