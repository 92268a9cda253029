import FoundationEssentials
@testable import MoviesCLI
import MoviesDomain
import MoviesWire
import Testing

/// `movies account`, `movies sync` and `movies pending`: parsing, what they print, exit codes.
@Suite struct AccountCommandTests {
    typealias Harness = MoviesCommandLineTests.Harness

    static func login(signedIn: Bool, expiresIn seconds: Double = 3600) -> AccountLoginReply {
        AccountLoginReply(signedIn
            ? AccountLogin(accountID: 22011, username: "stub-user")
            : AccountLogin(approvalURL: "https://www.themoviedb.org/authenticate/abc", expiresAt: Fixtures.fetchedAt.addingTimeInterval(seconds)))
    }

    static func sync(_ activity: AccountSyncStatus.Activity, pending: Int = 0, unconfirmed: Int = 0, error: String? = nil) -> SyncReply {
        SyncReply(sync: AccountSyncStatus(activity: activity, accountID: 22011, username: "stub-user", pending: pending, unconfirmed: unconfirmed, lastError: error))
    }

    @Test func loginPrintsTheApprovalPageAndWithWaitPollsUntilApproved() {
        let harness = Harness()
        harness.client.loginResults = [.success(Self.login(signedIn: false)), .success(Self.login(signedIn: false)), .success(Self.login(signedIn: true))]
        #expect(harness.run("account", "login", "--wait") == .success)
        #expect(harness.output.text.contains("https://www.themoviedb.org/authenticate/abc"))
        #expect(harness.output.text.components(separatedBy: "authenticate/abc").count == 2, "the address is printed once")
        #expect(harness.output.text.hasSuffix("Signed in to TMDB as stub-user.\n"))
        #expect(harness.client.loginCalls == 3)
        #expect(harness.pauses == [3, 3])
    }

    @Test func loginWithoutWaitSaysToRunItAgain() {
        let harness = Harness()
        harness.client.loginResults = [.success(Self.login(signedIn: false))]
        #expect(harness.run("account", "login") == .success)
        #expect(harness.output.text.contains("Then run 'movies account login' again."))
        #expect(harness.client.loginCalls == 1)
    }

    @Test func anExpiredApprovalEndsTheWaitWith75() {
        let harness = Harness()
        harness.client.loginResults = [.success(Self.login(signedIn: false, expiresIn: -1))]
        #expect(harness.run("account", "login", "--wait") == .temporaryFailure)
        #expect(harness.errors.text.contains("not approved in time"))
    }

    @Test func editsSayWhetherTheyAreOnTMDBOrPending() throws {
        let harness = Harness()
        harness.client.accountEditAnswer = { edit in
            let state: PendingEdit.State = edit.movieID == 603 ? .delivered : .pending
            let sync = AccountSyncStatus(activity: .offline, accountID: 22011, pending: 1, lastError: "TMDB refused the connection.")
            return .success(AccountEditReply(AccountEditResult(entry: PendingEdit(id: 1, edit: edit, state: state, createdAt: Fixtures.fetchedAt), sync: sync)))
        }
        #expect(harness.run("account", "watchlist", "add", "603", "550") == .success)
        #expect(harness.client.accountEdits == [try AccountEdit(movieID: 603, change: .watchlist(true)), try AccountEdit(movieID: 550, change: .watchlist(true))])
        #expect(harness.output.text == """
            Add 603 to the watchlist: done, on TMDB.
            Add 550 to the watchlist: saved, pending — it goes to TMDB when TMDB can be reached (TMDB refused the connection); 'movies pending' lists what waits.

            """)
    }

    @Test func anEditWaitsForTMDBOnlyWhenAskedTo() throws {
        let harness = Harness()
        harness.client.accountEditAnswer = { edit in
            let sync = AccountSyncStatus(activity: .idle, accountID: 22011)
            return .success(AccountEditReply(AccountEditResult(entry: PendingEdit(id: 1, edit: edit, state: .delivered, createdAt: Fixtures.fetchedAt), sync: sync)))
        }
        #expect(harness.run("account", "watchlist", "add", "603") == .success)
        #expect(harness.run("account", "rate", "603", "8", "--wait") == .success)
        #expect(harness.run("account", "unrate", "603", "--wait", "--timeout", "30s") == .success)
        #expect(harness.client.accountEditWaits == [nil, 60, 30])
    }

    @Test(arguments: [
        (["account", "rate", "603", "11"], "0.5 to 10 in steps of 0.5, not 11"),
        (["account", "rate", "603", "7.25"], "steps of 0.5, not 7.25"),
        (["account", "watchlist", "add", "603", "--wait", "--timeout", "0"], "such as 30s or 1m (an edit waits at most 60s)"),
        (["account", "rate", "603"], "ID VALUE"),
        (["account", "watchlist", "add"], "movie ID"),
        (["account", "watchlist", "toggle", "603"], "add ID"),
        (["account", "favorite", "add", "abc"], "not a TMDB movie id"),
        (["account", "show", "--wait"], "apply to 'account login' and to edits"),
        (["account", "watchlist", "add", "603", "--timeout", "5s"], "applies to --wait"),
        (["account", "watchlist", "add", "603", "--wait", "--timeout", "2m"], "at most 60s"),
        (["account", "dance"], "unknown account action"),
        (["sync", "--timeout", "5m"], "applies to 'sync --wait'"),
        (["sync", "--wait", "--timeout", "2h"], "1s to 1h"),
    ])
    func badCommandLinesAreUsageErrors(arguments: [String], says: String) {
        let harness = Harness()
        #expect(harness.run(arguments) == .usage)
        #expect(harness.errors.text.contains(says), "\(harness.errors.text)")
        #expect(harness.client.accountEdits.isEmpty)
    }

    @Test func anEditTMDBRefusedExits1() {
        let harness = Harness()
        harness.client.accountEditAnswer = { edit in
            let entry = PendingEdit(id: 2, edit: edit, state: .rejected, createdAt: Fixtures.fetchedAt, attempts: 1, lastError: "TMDB answered HTTP 404, code 34.")
            return .success(AccountEditReply(AccountEditResult(entry: entry, sync: AccountSyncStatus(activity: .idle, accountID: 22011, rejected: 1))))
        }
        #expect(harness.run("account", "watchlist", "add", "999999") == .failure)
        #expect(harness.output.text == "Add 999999 to the watchlist: refused by TMDB, so undone here — TMDB answered HTTP 404, code 34.\n")
    }

    @Test func rateAndUnrateSendRatings() throws {
        let harness = Harness()
        #expect(harness.run("account", "rate", "603", "8.5") == .success)
        #expect(harness.run("account", "unrate", "603", "550") == .success)
        #expect(harness.client.accountEdits == [
            try AccountEdit(movieID: 603, change: .rating(8.5)), try AccountEdit(movieID: 603, change: .rating(nil)), try AccountEdit(movieID: 550, change: .rating(nil)),
        ])
    }

    @Test func notSignedInExits77() {
        let harness = Harness()
        harness.client.accountEditAnswer = { _ in .failure(.notSignedIn("nobody is signed in to TMDB; sign in with: movies account login")) }
        #expect(harness.run("account", "favorite", "add", "603") == .noPermission)
        #expect(harness.errors.text == "movies: nobody is signed in to TMDB; sign in with: movies account login\n")
    }

    @Test(arguments: [
        (AccountSyncStatus.Activity.idle, 0, 0, false, ExitCode.success),
        (.offline, 3, 0, false, .temporaryFailure),
        (.idle, 0, 2, false, .success),
        (.idle, 0, 2, true, .temporaryFailure),
        (.blockedOnAuth, 4, 0, true, .noPermission),
        (.signedOut, 0, 0, false, .noPermission),
    ])
    func syncExitsWithWhatBlocks(activity: AccountSyncStatus.Activity, pending: Int, unconfirmed: Int, wait: Bool, code: ExitCode) {
        let harness = Harness()
        harness.client.syncResults = [.success(Self.sync(activity, pending: pending, unconfirmed: unconfirmed))]
        #expect(harness.run(wait ? ["sync", "--wait", "--timeout", "1s"] : ["sync"]) == code)
        #expect(harness.client.syncWaits.first.flatMap { $0 } == (wait ? 1 : nil))
    }

    @Test func syncWaitKeepsAskingUntilSettled() {
        let harness = Harness()
        harness.client.syncResults = [.success(Self.sync(.offline, pending: 2)), .success(Self.sync(.idle, unconfirmed: 1)), .success(Self.sync(.idle))]
        #expect(harness.run("sync", "--wait") == .success)
        #expect(harness.client.syncWaits == [45, 45, 45])
        #expect(harness.output.text.hasPrefix("stub-user: idle, every edit on TMDB"))
    }

    @Test func pendingListsEntriesWithTheirState() throws {
        let harness = Harness()
        let sync = AccountSyncStatus(activity: .offline, accountID: 22011, username: "stub-user", pending: 1, rejected: 1, nextAttemptAt: Fixtures.fetchedAt.addingTimeInterval(30))
        harness.client.pendingResult = .success(PendingReply(entries: [
            PendingEdit(id: 4, edit: try AccountEdit(movieID: 603, change: .rating(8)), state: .pending, createdAt: Fixtures.fetchedAt, attempts: 2,
                        lastError: "TMDB answered HTTP 500.", nextAttemptAt: Fixtures.fetchedAt.addingTimeInterval(30)),
            PendingEdit(id: 5, edit: try AccountEdit(movieID: 9, change: .watchlist(true)), state: .rejected, createdAt: Fixtures.fetchedAt, attempts: 1,
                        lastError: "TMDB answered HTTP 404, code 34"),
        ], sync: sync))
        #expect(harness.run("pending", "--dismiss-rejected") == .success)
        #expect(harness.client.dismissedRejected == [true])
        let lines = harness.output.text.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("stub-user: offline, 1 edit(s) waiting (next try in 30 s), 1 refused by TMDB"))
        #expect(lines[1] == "#4 pending  rate 603 8.0 — 2 attempt(s), next try in 30 s: TMDB answered HTTP 500.")
        #expect(lines[2] == "#5 rejected  add 9 to the watchlist — 1 attempt(s): TMDB answered HTTP 404, code 34")
    }

    @Test func showPrintsTheListsWithPendingMarks() {
        let harness = Harness()
        harness.client.accountResult = .success(AccountReply(AccountView(
            accountID: 22011, username: "stub-user",
            lists: [.watchlist: [AccountItem(movieID: 603, title: "The Matrix", releaseDate: "1999-03-30"), AccountItem(movieID: 11, pending: true)],
                    .rated: [AccountItem(movieID: 550, title: "Fight Club", rating: 8.5, pending: true)]],
            pulledAt: Fixtures.fetchedAt.addingTimeInterval(-300))))
        #expect(harness.run("account") == .success)
        #expect(harness.output.text == """
            TMDB account stub-user (22011); lists pulled 5 min ago
            Watchlist: 2
              603  The Matrix (1999)
               11  (title not known yet)  (pending)
            Favourites: none
            Rated: 1
              550  Fight Club  8.5  (pending)

            """)
    }

    @Test func showAfterASignOutSaysTheListsAreAsTheyWere() {
        let harness = Harness()
        harness.client.accountResult = .success(AccountReply(AccountView(
            accountID: 22011, username: "stub-user", lists: [.favorite: [AccountItem(movieID: 3, pending: true)]],
            pulledAt: Fixtures.fetchedAt.addingTimeInterval(-300), signedIn: false)))
        #expect(harness.run("account") == .success)
        let lines = harness.output.text.split(separator: "\n").map(String.init)
        #expect(lines.prefix(2) == [
            "TMDB account stub-user (22011); lists pulled 5 min ago",
            "Signed out: the lists as they were; waiting edits go to TMDB at the next sign-in to this account (movies account login).",
        ])
    }
}
