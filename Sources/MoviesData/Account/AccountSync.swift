import FoundationEssentials
import MoviesDomain
import Networking
import SystemSupport

/// Two-way sync with the TMDB account (`AccountRepository`): signs in, keeps the user's edits in a
/// durable outbox (`AccountStorage`, the state database) and sends them in order when TMDB can be
/// reached, and pulls the account's lists.
///
/// - Every edit is recorded with its outbox entry in one transaction before anything is sent, so an
///   acknowledged edit survives a crash; entries are sent oldest first and are set-states, so a
///   resend after a crash is harmless.
/// - Answers are classified by `AccountFailure`: an outage stops the pass and backs off; a failure
///   of one entry backs off that entry only (later edits of the same movie wait for it, others go
///   on); a refused session pauses everything until the user signs in again; a refused entry is
///   dropped, undone and its reason kept.
/// - One pass (send, then pull) runs at a time; callers join it.
public actor AccountSync: AccountRepository {
    /// Timings and limits.
    public struct Settings: Sendable, Hashable {
        /// How often the lists are pulled when nothing else asks (`[Account] PullIntervalSec=`).
        public var pullIntervalSeconds: Double
        /// How long a delivered edit is shown over the pulled lists when they do not show it yet.
        public var unconfirmedGraceSeconds: Double
        /// The first back-off after a failure that may pass; doubled each time.
        public var initialBackoffSeconds: Double
        /// The longest back-off.
        public var maxBackoffSeconds: Double
        /// Where users approve a request token (the token is appended).
        public var approvalURLPrefix: String
        /// The most pages pulled of one list (TMDB serves at most 500).
        public var maxListPages: Int
        /// Whether an edit starts a pass at once (off only where passes are driven by hand: the
        /// deterministic simulation).
        public var sendsEditsAtOnce = true
        /// A write still unanswered after this many seconds means TMDB is not answering: an edit
        /// waiting for it returns "pending" then, and later edits do not wait (`nil`: never).
        public var notAnsweringAfterSeconds: Double?

        /// Creates settings (defaults: pull hourly, 10 minutes' grace, back-off 2 s doubling to 15 min).
        public init(
            pullIntervalSeconds: Double = 3600, unconfirmedGraceSeconds: Double = 600, initialBackoffSeconds: Double = 2,
            maxBackoffSeconds: Double = 900, approvalURLPrefix: String = "https://www.themoviedb.org/authenticate/", maxListPages: Int = 500
        ) {
            self.pullIntervalSeconds = pullIntervalSeconds
            self.unconfirmedGraceSeconds = unconfirmedGraceSeconds
            self.initialBackoffSeconds = initialBackoffSeconds
            self.maxBackoffSeconds = maxBackoffSeconds
            self.approvalURLPrefix = approvalURLPrefix
            self.maxListPages = maxListPages
        }
    }

    let remote: any AccountRemote
    /// Whose account this is: its passes wait for TMDB's rate limit in the owner's lane.
    let owner: Owner
    let storage: any AccountStorage
    let sessions: any AccountSessionStore
    let settings: Settings
    let now: @Sendable () -> Date
    let events: any EventLog
    let sleep: @Sendable (Double) async throws -> Void
    /// TMDB's health, shared with the cache: told what the account's calls learn of TMDB (an answer,
    /// or none at all), and read to decide whether an edit waits for TMDB (`nil`: neither).
    let health: RemoteHealth?

    var session: AccountSession?
    /// A write is in flight and has passed `notAnsweringAfterSeconds`.
    var writeIsSlow = false
    var sessionLoaded = false
    /// TMDB refused the session: nothing is sent until the user signs in again.
    var authBlocked = false
    var pendingLogin: AccountRequestToken?
    var passTask: Task<Void, Never>?
    var rerun = false
    var forceNext = false
    var wantsPull = false
    var nextPullAt: Date?
    /// After an outage: when anything is tried again.
    var globalRetryAt: Date?
    var lastError: String?
    var lastSuccessAt: Date?
    /// Signalled at each step of the outbox's progress: edits waiting for TMDB look again.
    let progress = WakeSignal()
    /// Wakes the service loop early.
    let wake = WakeSignal()

    /// Creates the sync. `sleep` paces `sync(waitSeconds:)` and the service loop (tests pass a virtual one).
    public init(
        remote: any AccountRemote, storage: any AccountStorage, sessions: any AccountSessionStore, settings: Settings = Settings(),
        now: @escaping @Sendable () -> Date = { Date() }, events: any EventLog = DiscardingEventLog(),
        sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .seconds($0)) },
        health: RemoteHealth? = nil, owner: Owner = .system
    ) {
        self.owner = owner
        self.health = health
        self.remote = remote
        self.storage = storage
        self.sessions = sessions
        self.settings = settings
        self.now = now
        self.events = events
        self.sleep = sleep
    }

    // MARK: The service loop

    /// Sends and pulls whenever something is due, until cancelled: after an edit, at each entry's
    /// retry time, and every `pullIntervalSeconds`.
    public func run() async {
        while !Task.isCancelled {
            await pass(pull: isPullDue, force: false, cancellable: true)
            let delay = secondsUntilNextWork()
            plannedWakeAt = now().addingTimeInterval(delay)
            await wake.wait(atMostSeconds: delay, sleep: sleep)
        }
    }

    /// Runs a pass when the lists are due for a pull (the refresh scheduler calls this).
    public func runIfDue() async {
        if isPullDue || globalRetryAt.map({ $0 <= now() }) == true { await pass(pull: isPullDue, force: false) }
    }

    /// Pulls the lists now, when signed in (a refresh starts with this, so the account's watchlist
    /// is pinned with the rest).
    public func pullNow() async {
        await pass(pull: true, force: false)
    }

    /// The movie ids on the account's watchlist as the user sees it (pending adds included).
    public func watchlistMovieIDs() async -> [Int] {
        guard let view = try? await view() else { return [] }
        return view.items(.watchlist).map(\.movieID)
    }

    var isPullDue: Bool {
        guard session != nil || !sessionLoaded else { return false }
        return nextPullAt.map { $0 <= now() } ?? true
    }

    func secondsUntilNextWork() -> Double {
        let date = now()
        var next = nextPullAt ?? date.addingTimeInterval(settings.pullIntervalSeconds)
        if let retry = globalRetryAt { next = min(next, retry) }
        if let entryRetry = nextEntryAttemptAt { next = min(next, entryRetry) }
        return min(settings.pullIntervalSeconds, max(0.05, next.timeIntervalSince(date)))
    }

    var nextEntryAttemptAt: Date?
    /// Failed pulls in a row.
    var pullFailures = 0
    /// When the service loop next wakes by itself.
    var plannedWakeAt: Date?

    /// Wakes the service loop when something is due before it would wake by itself (a retry
    /// scheduled by a pass an edit or a refresh started).
    func due(at date: Date) {
        if plannedWakeAt.map({ date < $0 }) ?? false { wake.signal() }
    }

    // MARK: Passes

    /// Runs one pass (send what is due, then pull when asked or due), or joins the running one and
    /// has it go round once more. `cancellable`: cancelling the caller stops the pass (the service
    /// loop at shutdown); other callers only stop waiting for it.
    func pass(pull: Bool, force: Bool, cancellable: Bool = false) async {
        wantsPull = wantsPull || pull
        forceNext = forceNext || force
        let task: Task<Void, Never>
        if let running = passTask {
            rerun = true
            task = running
        } else {
            task = Task { await self.passLoop() }
            passTask = task
        }
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            if cancellable { task.cancel() }
        }
    }

    func passLoop() async {
        // Background work of its owner, whoever started it (an edit's call, the refresh): one
        // user's drain takes turns with the others' requests (`RateLimitLane`).
        await RateLimitLane.$current.withValue(RateLimitLane(owner: owner, priority: .background)) {
            await passes()
        }
        passTask = nil
        progress.signal()
    }

    private func passes() async {
        repeat {
            rerun = false
            let force = forceNext
            forceNext = false
            await drainOnce(force: force)
            if wantsPull, !Task.isCancelled {
                wantsPull = false
                await pullOnce(force: force)
            }
            progress.signal()
        } while rerun && !Task.isCancelled
    }

    /// Sends the due entries, oldest first; `force` tries even while backing off from an outage
    /// (an edit was just made: TMDB may be back). An entry's own back-off always holds.
    func drainOnce(force: Bool) async {
        guard let session = await resolvedSession(), !authBlocked else { return }
        if !force, let retry = globalRetryAt, retry > now() { return }
        let snapshot: AccountSnapshot
        do {
            snapshot = try await storage.snapshot(accountID: session.accountID)
        } catch {
            note(error: MoviesError.storage(wrapping: error).message)
            return
        }
        var waitingMovies = Set<Int>()
        nextEntryAttemptAt = nil
        for entry in snapshot.entries where entry.state == .pending {
            let movie = entry.edit.movieID
            if waitingMovies.contains(movie) { continue }
            if let next = entry.nextAttemptAt, next > now() {
                waitingMovies.insert(movie)
                nextEntryAttemptAt = min(nextEntryAttemptAt ?? next, next)
                continue
            }
            if Task.isCancelled { return }
            switch await deliver(entry, session: session) {
            case .sent, .rejected: continue
            case .waitsAlone: waitingMovies.insert(movie)
            case .stop: return
            }
            progress.signal()
        }
    }

    enum Delivery { case sent, rejected, waitsAlone, stop }

    /// Sends one entry and records what TMDB said. A write is delivered only when TMDB's answer
    /// confirms it (`AccountRemote.send`); one answered without a confirmation stays pending (sent
    /// again later: a set-state, harmless) and the lists are pulled to show TMDB's state.
    func deliver(_ entry: PendingEdit, session: AccountSession) async -> Delivery {
        do {
            _ = try await timedWrite(entry.edit, session: session)
            writeIsSlow = false
            await health?.recordSuccess()
            return await delivered(entry, session: session)
        } catch {
            writeIsSlow = false
            let message = scrubbed(error, session: session)
            if let failure = error as? MoviesError {
                // No answer at all says TMDB is unreachable, for the cache too; an answer, even a
                // refusal, says it is reachable.
                if failure.httpStatus == nil, failure.code == .remoteUnavailable { await health?.recordFailure(failure) }
                if let status = failure.httpStatus, (200...299).contains(status) { wantsPull = true }
            }
            switch AccountFailure.classify(error) {
            case .alreadyApplied:
                return await delivered(entry, session: session)
            case .retry(let isGlobal, let after):
                let wait = backoff(attempt: entry.attempts + 1, retryAfter: after)
                let retryAt = now().addingTimeInterval(wait)
                do {
                    try await storage.markFailed(entry.id, error: message, nextAttemptAt: retryAt)
                } catch {
                    note(error: MoviesError.storage(wrapping: error).message)
                }
                note(error: message)
                nextEntryAttemptAt = min(nextEntryAttemptAt ?? retryAt, retryAt)
                due(at: retryAt)
                guard isGlobal else { return .waitsAlone }
                globalRetryAt = retryAt
                events.record(DataEvent(.notice, "account.offline", "TMDB could not take the account's edits (\(message)); waiting edits are tried again in \(Int(wait.rounded(.up))) s"))
                return .stop
            case .auth:
                blockOnAuth(message)
                return .stop
            case .reject:
                do {
                    try await storage.reject(entry.id, reason: message, at: now())
                } catch {
                    note(error: MoviesError.storage(wrapping: error).message)
                }
                events.record(DataEvent(.warning, "account.rejected", "TMDB refused to \(entry.edit) (\(message)); the change was undone"))
                return .rejected
            case .cancelled:
                return .stop
            }
        }
    }

    func delivered(_ entry: PendingEdit, session: AccountSession) async -> Delivery {
        do {
            try await storage.markDelivered(entry.id, edit: entry.edit, accountID: session.accountID, at: now())
        } catch {
            // TMDB has it; the entry stays pending and is sent again (a set-state: harmless).
            note(error: MoviesError.storage(wrapping: error).message)
            return .stop
        }
        lastSuccessAt = now()
        lastError = nil
        wantsPull = true
        if globalRetryAt != nil {
            // TMDB is back: what waited for it is due now.
            globalRetryAt = nil
            try? await storage.makeDue(accountID: session.accountID)
            rerun = true
        }
        return .sent
    }

    /// Pulls the three lists and replaces the local copy (not while backing off from an outage,
    /// unless `force`).
    func pullOnce(force: Bool) async {
        guard let session = await resolvedSession(), !authBlocked else { return }
        if !force, let retry = globalRetryAt, retry > now() { return }
        let started = now()
        do {
            var lists: [AccountList: [AccountItem]] = [:]
            for list in AccountList.allCases { lists[list] = try await pullList(list, session: session) }
            // TMDB answered (`movies sync` is an explicit command): the cache may ask it again too.
            await health?.recordSuccess()
            let settled = try await storage.replaceLists(
                lists, accountID: session.accountID, pulledAt: started,
                unconfirmedBefore: started.addingTimeInterval(-settings.unconfirmedGraceSeconds))
            try? await storage.recordSync(accountID: session.accountID, username: session.username, succeededAt: now(), error: nil)
            lastSuccessAt = now()
            lastError = nil
            pullFailures = 0
            nextPullAt = now().addingTimeInterval(settings.pullIntervalSeconds)
            let counts = AccountList.allCases.map { "\(lists[$0]?.count ?? 0) \($0.rawValue)" }.joined(separator: ", ")
            events.record(DataEvent(.info, "account.pulled", "account lists pulled: \(counts); \(settled) edit(s) confirmed"))
        } catch {
            let message = scrubbed(error, session: session)
            switch AccountFailure.classify(error) {
            case .auth:
                blockOnAuth(message)
            case .cancelled:
                break
            case .retry(let isGlobal, let after):
                pullFailed(message, global: isGlobal, retryAfter: after)
            case .alreadyApplied, .reject:
                pullFailed(message, global: false, retryAfter: nil)
            }
        }
    }

    /// A failed pull: tried again after a back-off that grows with each failure in a row.
    func pullFailed(_ message: String, global: Bool, retryAfter: Int?) {
        note(error: message)
        pullFailures += 1
        let retryAt = now().addingTimeInterval(backoff(attempt: pullFailures, retryAfter: retryAfter))
        nextPullAt = retryAt
        if global { globalRetryAt = max(globalRetryAt ?? retryAt, retryAt) }
        due(at: retryAt)
    }

    func pullList(_ list: AccountList, session: AccountSession) async throws -> [AccountItem] {
        var items: [AccountItem] = []
        var seen = Set<Int>()
        var page = 1
        var lastPage = 1
        repeat {
            let answer = try await remote.listPage(list, session: session, page: page)
            for item in answer.items where seen.insert(item.movieID).inserted { items.append(item) }
            lastPage = min(settings.maxListPages, max(1, answer.totalPages))
            page += 1
        } while page <= lastPage
        return items
    }

    func blockOnAuth(_ message: String) {
        if !authBlocked {
            events.record(DataEvent(.warning, "account.auth", "TMDB refused the account session (\(message)); edits are kept until you sign in again: movies account login"))
        }
        authBlocked = true
        lastError = "TMDB refused the session (\(message)); sign in again: movies account login"
    }

    func note(error message: String) {
        lastError = message
    }

    func backoff(attempt: Int, retryAfter: Int?) -> Double {
        let doubling = Backoff(initialSeconds: settings.initialBackoffSeconds, maxSeconds: settings.maxBackoffSeconds).seconds(afterFailures: attempt)
        return min(settings.maxBackoffSeconds, max(doubling, Double(retryAfter ?? 0)))
    }

    func scrubbed(_ error: any Error, session: AccountSession) -> String {
        let text = (error as? MoviesError)?.message ?? "\(type(of: error))"
        return text.replacingOccurrences(of: session.sessionID, with: "<redacted>")
    }

    // MARK: Session

    /// Whether a session is kept for this account (loaded once from the store; TMDB is not asked).
    func hasSession() -> Bool {
        loadSession()
        return session != nil
    }

    /// Loads the session from the store the first time.
    private func loadSession() {
        guard !sessionLoaded else { return }
        sessionLoaded = true
        do {
            session = try sessions.load()
        } catch {
            note(error: "the saved TMDB session could not be read: \(error)")
        }
    }

    /// The session, loaded once from the store; one without an account id gets it from the state
    /// database, or TMDB.
    func resolvedSession() async -> AccountSession? {
        loadSession()
        guard var current = session else { return nil }
        if current.accountID == 0 {
            // A session from the credential, without its account: only TMDB can say whose it is
            // (never guessed from the last account used here, which may be someone else's).
            do {
                let details = try await remote.accountDetails(sessionID: current.sessionID)
                current.accountID = details.id
                current.username = details.username
            } catch {
                if AccountFailure.classify(error) == .auth { blockOnAuth(scrubbed(error, session: current)) }
                return nil
            }
            guard session?.sessionID == current.sessionID else { return session }
            try? await storage.recordSync(accountID: current.accountID, username: current.username, succeededAt: nil, error: nil)
            session = current
        }
        return current
    }

    func requireSession() async throws -> AccountSession {
        guard let session = await resolvedSession() else {
            if self.session != nil { throw MoviesError(code: .remoteUnavailable, message: "the TMDB session has no account yet and TMDB cannot be reached to look it up; try again when online") }
            throw MoviesError.notSignedIn()
        }
        return session
    }
}
