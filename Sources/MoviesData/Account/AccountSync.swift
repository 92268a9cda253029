import FoundationEssentials
import MoviesDomain

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
    let storage: any AccountStorage
    let sessions: any AccountSessionStore
    let settings: Settings
    let now: @Sendable () -> Date
    let events: any EventLog
    private let sleep: @Sendable (Double) async throws -> Void

    private var session: AccountSession?
    private var sessionLoaded = false
    /// TMDB refused the session: nothing is sent until the user signs in again.
    private var authBlocked = false
    private var pendingLogin: AccountRequestToken?
    private var passTask: Task<Void, Never>?
    private var rerun = false
    private var forceNext = false
    private var wantsPull = false
    private var nextPullAt: Date?
    /// After an outage: when anything is tried again.
    private var globalRetryAt: Date?
    private var lastError: String?
    private var lastSuccessAt: Date?
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextWaiterID = 0
    private let wake = RefreshWakeSignal()

    /// Creates the sync. `sleep` paces `sync(waitSeconds:)` and the service loop (tests pass a virtual one).
    public init(
        remote: any AccountRemote, storage: any AccountStorage, sessions: any AccountSessionStore, settings: Settings = Settings(),
        now: @escaping @Sendable () -> Date = { Date() }, events: any EventLog = DiscardingEventLog(),
        sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .seconds($0)) }
    ) {
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
        let wake = wake
        let sleep = sleep
        while !Task.isCancelled {
            await pass(pull: isPullDue, force: false, cancellable: true)
            let delay = secondsUntilNextWork()
            plannedWakeAt = now().addingTimeInterval(delay)
            await withTaskGroup(of: Void.self) { group in
                group.addTask { try? await sleep(delay) }
                group.addTask { await wake.wait() }
                await group.next()
                group.cancelAll()
            }
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

    private var isPullDue: Bool {
        guard session != nil || !sessionLoaded else { return false }
        return nextPullAt.map { $0 <= now() } ?? true
    }

    private func secondsUntilNextWork() -> Double {
        let date = now()
        var next = nextPullAt ?? date.addingTimeInterval(settings.pullIntervalSeconds)
        if let retry = globalRetryAt { next = min(next, retry) }
        if let entryRetry = nextEntryAttemptAt { next = min(next, entryRetry) }
        return min(settings.pullIntervalSeconds, max(0.05, next.timeIntervalSince(date)))
    }

    private var nextEntryAttemptAt: Date?
    /// Failed pulls in a row.
    private var pullFailures = 0
    /// When the service loop next wakes by itself.
    private var plannedWakeAt: Date?

    /// Wakes the service loop when something is due before it would wake by itself (a retry
    /// scheduled by a pass an edit or a refresh started).
    private func due(at date: Date) {
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

    private func passLoop() async {
        repeat {
            rerun = false
            let force = forceNext
            forceNext = false
            await drainOnce(force: force)
            if wantsPull, !Task.isCancelled {
                wantsPull = false
                await pullOnce(force: force)
            }
            notifyProgress()
        } while rerun && !Task.isCancelled
        passTask = nil
        notifyProgress()
    }

    /// Sends the due entries, oldest first; `force` tries even while backing off from an outage
    /// (an edit was just made: TMDB may be back). An entry's own back-off always holds.
    private func drainOnce(force: Bool) async {
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
            notifyProgress()
        }
    }

    private enum Delivery { case sent, rejected, waitsAlone, stop }

    /// Sends one entry and records what TMDB said.
    private func deliver(_ entry: PendingEdit, session: AccountSession) async -> Delivery {
        do {
            _ = try await remote.send(entry.edit, session: session)
            return await delivered(entry, session: session)
        } catch {
            let message = scrubbed(error, session: session)
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
                events.record(DataEvent(.notice, "account.offline", "TMDB could not take the account's edits (\(message)); \(pendingWord) tried again in \(Int(wait.rounded(.up))) s"))
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

    private var pendingWord: String { "waiting edits are" }

    private func delivered(_ entry: PendingEdit, session: AccountSession) async -> Delivery {
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
    private func pullOnce(force: Bool) async {
        guard let session = await resolvedSession(), !authBlocked else { return }
        if !force, let retry = globalRetryAt, retry > now() { return }
        let started = now()
        do {
            var lists: [AccountList: [AccountItem]] = [:]
            for list in AccountList.allCases { lists[list] = try await pullList(list, session: session) }
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
    private func pullFailed(_ message: String, global: Bool, retryAfter: Int?) {
        note(error: message)
        pullFailures += 1
        let retryAt = now().addingTimeInterval(backoff(attempt: pullFailures, retryAfter: retryAfter))
        nextPullAt = retryAt
        if global { globalRetryAt = max(globalRetryAt ?? retryAt, retryAt) }
        due(at: retryAt)
    }

    private func pullList(_ list: AccountList, session: AccountSession) async throws -> [AccountItem] {
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

    private func blockOnAuth(_ message: String) {
        if !authBlocked {
            events.record(DataEvent(.warning, "account.auth", "TMDB refused the account session (\(message)); edits are kept until you sign in again: movies account login"))
        }
        authBlocked = true
        lastError = "TMDB refused the session (\(message)); sign in again: movies account login"
    }

    private func note(error message: String) {
        lastError = message
    }

    private func backoff(attempt: Int, retryAfter: Int?) -> Double {
        let doubling = settings.initialBackoffSeconds * Double(1 << min(max(attempt - 1, 0), 20))
        return min(settings.maxBackoffSeconds, max(doubling, Double(retryAfter ?? 0)))
    }

    private func scrubbed(_ error: any Error, session: AccountSession) -> String {
        let text = (error as? MoviesError)?.message ?? "\(type(of: error))"
        return text.replacingOccurrences(of: session.sessionID, with: "<redacted>")
    }

    // MARK: Waiting

    private func waitForProgress(seconds: Double) async {
        guard seconds > 0 else { return }
        let id = nextWaiterID
        nextWaiterID += 1
        let timer = Task { [weak self] in
            try? await Task.sleep(for: .seconds(seconds))
            await self?.expireWaiter(id)
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            waiters[id] = continuation
        }
        timer.cancel()
    }

    private func expireWaiter(_ id: Int) {
        waiters.removeValue(forKey: id)?.resume()
    }

    private func notifyProgress() {
        let all = waiters
        waiters = [:]
        for waiter in all.values { waiter.resume() }
    }

    // MARK: Session

    /// The session, loaded once from the store; one without an account id gets it from the state
    /// database, or TMDB.
    private func resolvedSession() async -> AccountSession? {
        if !sessionLoaded {
            sessionLoaded = true
            do {
                session = try sessions.load()
            } catch {
                note(error: "the saved TMDB session could not be read: \(error)")
            }
        }
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

    private func requireSession() async throws -> AccountSession {
        guard let session = await resolvedSession() else {
            if self.session != nil { throw MoviesError(code: .remoteUnavailable, message: "the TMDB session has no account yet and TMDB cannot be reached to look it up; try again when online") }
            throw MoviesError.notSignedIn()
        }
        return session
    }
}

extension AccountSync {
    // MARK: AccountRepository

    /// Signs in (see `AccountRepository.login`).
    public func login() async throws -> AccountLogin {
        if let session = await resolvedSession(), !authBlocked {
            // Still valid? TMDB may have ended it since the last call; unreachable counts as valid.
            do {
                _ = try await remote.accountDetails(sessionID: session.sessionID)
                return AccountLogin(accountID: session.accountID, username: session.username)
            } catch where AccountFailure.classify(error) == .auth {
                blockOnAuth(scrubbed(error, session: session))
            } catch {
                return AccountLogin(accountID: session.accountID, username: session.username)
            }
        }
        if let request = pendingLogin, request.expiresAt.map({ $0 > now() }) ?? true {
            do {
                let sessionID = try await remote.createSession(requestToken: request.token)
                return try await signedIn(sessionID: sessionID)
            } catch let error as MoviesError where error.tmdbCode == 17 {
                // Not approved yet.
                return AccountLogin(approvalURL: settings.approvalURLPrefix + request.token, expiresAt: request.expiresAt)
            } catch let error as MoviesError where error.tmdbCode == 33 {
                pendingLogin = nil
            }
        }
        let request = try await remote.createRequestToken()
        pendingLogin = request
        return AccountLogin(approvalURL: settings.approvalURLPrefix + request.token, expiresAt: request.expiresAt)
    }

    private func signedIn(sessionID: String) async throws -> AccountLogin {
        let details = try await remote.accountDetails(sessionID: sessionID)
        let new = AccountSession(sessionID: sessionID, accountID: details.id, username: details.username)
        do {
            try sessions.save(new)
        } catch {
            throw MoviesError.storage(.unavailable, detail: "the session could not be saved: \(error)")
        }
        try? await storage.recordSync(accountID: new.accountID, username: new.username, succeededAt: now(), error: nil)
        session = new
        sessionLoaded = true
        pendingLogin = nil
        authBlocked = false
        globalRetryAt = nil
        lastError = nil
        events.record(DataEvent(.notice, "account.signed_in", "signed in to TMDB as \(new.username ?? "account \(new.accountID)")"))
        if settings.sendsEditsAtOnce { Task { await self.pass(pull: true, force: true) } }
        return AccountLogin(accountID: new.accountID, username: new.username)
    }

    /// Signs out (see `AccountRepository.logout`).
    public func logout() async throws -> Int {
        guard let current = await resolvedSession() ?? session else { throw MoviesError.notSignedIn() }
        // Forgotten here first: a session the system's credential holds cannot be, and then
        // nothing happens.
        do {
            try sessions.delete()
        } catch {
            throw MoviesError.notSignedIn("cannot sign out: \(error)")
        }
        session = nil
        do {
            try await remote.deleteSession(current.sessionID)
        } catch {
            events.record(DataEvent(.notice, "account.logout", "TMDB could not be told of the sign-out (\((error as? MoviesError)?.message ?? "error")); the session is forgotten here"))
        }
        authBlocked = false
        pendingLogin = nil
        let snapshot = try? await storage.snapshot(accountID: current.accountID)
        events.record(DataEvent(.notice, "account.signed_out", "signed out of TMDB"))
        return snapshot?.entries.filter { $0.state == .pending }.count ?? 0
    }

    /// Records and queues an edit (see `AccountRepository.apply`).
    public func apply(_ edit: AccountEdit, waitSeconds: Double) async throws -> AccountEditResult {
        let session = try await requireSession()
        let entry: PendingEdit
        do {
            entry = try await storage.enqueue(edit, accountID: session.accountID, at: now())
        } catch {
            throw MoviesError.storage(wrapping: error)
        }
        if settings.sendsEditsAtOnce { Task { await self.pass(pull: false, force: true) } }
        let deadline = now().addingTimeInterval(waitSeconds)
        var current = entry
        while true {
            let snapshot = try? await storage.snapshot(accountID: session.accountID)
            // An entry gone was superseded by a newer edit of the same movie, or confirmed.
            current = snapshot?.entries.first { $0.id == entry.id } ?? PendingEdit(id: entry.id, edit: edit, state: .delivered, createdAt: entry.createdAt)
            let remaining = deadline.timeIntervalSince(now())
            if current.state != .pending || authBlocked || remaining <= 0 || (current.attempts > 0 && passTask == nil) { break }
            await waitForProgress(seconds: remaining)
        }
        if authBlocked, current.state == .pending { current.state = .blockedOnAuth }
        return AccountEditResult(entry: current, sync: try await status())
    }

    /// The account's lists (see `AccountRepository.view`).
    public func view() async throws -> AccountView {
        let account = try await knownAccount()
        let snapshot = try await storageSnapshot(account.id)
        return AccountView(
            accountID: account.id, username: account.username ?? snapshot.username,
            lists: AccountOverlay.view(of: snapshot.lists, with: snapshot.entries), pulledAt: snapshot.pulledAt)
    }

    /// The outbox (see `AccountRepository.pending`).
    public func pending() async throws -> [PendingEdit] {
        let account = try await knownAccount()
        return try await storageSnapshot(account.id).entries.map { entry in
            var entry = entry
            if authBlocked, entry.state == .pending { entry.state = .blockedOnAuth }
            return entry
        }
    }

    /// Syncs now (see `AccountRepository.sync`).
    public func sync(waitSeconds: Double?) async throws -> AccountSyncStatus {
        let session = try await requireSession()
        guard !authBlocked else { return try await status() }
        try? await storage.makeDue(accountID: session.accountID)
        globalRetryAt = nil
        await pass(pull: true, force: true)
        guard let waitSeconds else { return try await status() }
        let deadline = now().addingTimeInterval(waitSeconds)
        var pause = 0.5
        while true {
            let current = try await status()
            let remaining = deadline.timeIntervalSince(now())
            if current.isSettled || authBlocked || remaining <= 0 { return current }
            var delay = min(remaining, pause)
            if current.pending > 0, let next = [globalRetryAt, nextEntryAttemptAt].compactMap({ $0 }).min() {
                delay = min(remaining, max(0.05, next.timeIntervalSince(now())))
            }
            do {
                try await sleep(delay)
            } catch {
                return try await status()
            }
            pause = min(pause * 2, 8)
            await pass(pull: current.unconfirmed > 0 || current.pending > 0, force: false)
        }
    }

    /// The outbox's state (see `AccountRepository.status`).
    public func status() async throws -> AccountSyncStatus {
        guard let session = await resolvedSession() ?? self.session else { return AccountSyncStatus(activity: .signedOut) }
        let snapshot = try await storageSnapshot(session.accountID)
        let activity: AccountSyncStatus.Activity
        if authBlocked {
            activity = .blockedOnAuth
        } else if let retry = globalRetryAt, retry > now() {
            activity = .offline
        } else if passTask != nil {
            activity = .syncing
        } else {
            activity = .idle
        }
        let entries = snapshot.entries
        let next = [globalRetryAt, nextEntryAttemptAt].compactMap { $0 }.filter { $0 > now() }.min()
        return AccountSyncStatus(
            activity: activity, accountID: session.accountID, username: session.username ?? snapshot.username,
            pending: entries.count { $0.state == .pending }, unconfirmed: entries.count { $0.state == .delivered },
            rejected: entries.count { $0.state == .rejected }, lastSuccessAt: lastSuccessAt ?? snapshot.lastSuccessAt,
            lastError: lastError ?? snapshot.lastError, pulledAt: snapshot.pulledAt, nextAttemptAt: next)
    }

    /// Forgets rejected entries (see `AccountRepository.dismissRejected`).
    public func dismissRejected() async throws -> Int {
        let account = try await knownAccount()
        do {
            return try await storage.dismissRejected(accountID: account.id)
        } catch {
            throw MoviesError.storage(wrapping: error)
        }
    }

    /// The signed-in account, or the last one (its lists stay readable after signing out).
    private func knownAccount() async throws -> (id: Int, username: String?) {
        if let session = await resolvedSession() { return (session.accountID, session.username) }
        if let last = try? await storage.lastAccount() { return last }
        throw MoviesError.notSignedIn()
    }

    private func storageSnapshot(_ accountID: Int) async throws -> AccountSnapshot {
        do {
            return try await storage.snapshot(accountID: accountID)
        } catch {
            throw MoviesError.storage(wrapping: error)
        }
    }
}
