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
/// - An edit never waits for other edits: while TMDB looks healthy a new edit is sent next (after
///   the one write in flight, and after the earlier entries of the same movie only); while the
///   outbox backs off, it is answered "pending" at once.
/// - Answers are classified by `AccountFailure`: a remote-wide failure (no answer, a timeout, a 5xx,
///   a 429) backs off the whole outbox, and when the pause is over one entry is sent as a probe; a
///   failure of one entry backs off that entry only (later edits of the same movie wait for it,
///   others go on); a refused session pauses everything until the user signs in again; a refused
///   entry is dropped, undone and its reason kept.
/// - One write is in flight per account: one pass (send, then pull) runs at a time; callers join it.
/// - Retry times, back-offs and the grace of unconfirmed edits run on the monotonic clock
///   (`TimeSource`), so a wall-clock step neither stalls nor floods the outbox; wall-clock times
///   are only stored for people and re-based at the start (`rebase(_:)`).
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
        /// Entries failing one by one in a pass before the whole outbox backs off: TMDB failing
        /// every entry is failing, whatever each answer says.
        public var entryFailuresPerPass = 3
        /// Where edits TMDB took or refused are counted (the daemon's metrics; `nil`: nowhere).
        public var metrics: OutboxMetrics?

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
    /// The wall clock: what is stored and shown (when an edit was made, when TMDB took it).
    let now: @Sendable () -> Date
    /// The monotonic clock and its sleep: every retry time, back-off and grace.
    let time: TimeSource
    let events: any EventLog
    /// TMDB's health, shared with the cache: told what the account's calls learn of TMDB (an answer,
    /// or none at all), and read to decide whether an edit waits for TMDB (`nil`: neither).
    let health: RemoteHealth?

    var session: AccountSession?
    /// A write is in flight and has passed `notAnsweringAfterSeconds`.
    var writeIsSlow = false
    var sessionLoaded = false
    /// TMDB refused the session: nothing is sent until the user signs in again.
    var authBlocked = false
    /// Why, for the entries it holds back (their own last error is of an attempt before).
    var authBlockedReason: String?
    var pendingLogin: AccountRequestToken?
    var passTask: Task<Void, Never>?
    var rerun = false
    var forceNext = false
    var wantsPull = false
    var lastError: String?
    var lastSuccessAt: Date?

    // The schedule, on the monotonic clock (`time.now()`).
    /// After a remote-wide failure: nothing is sent before this; then one entry goes as a probe.
    var outboxRetryAt: Double?
    /// Remote-wide failures in a row: the outbox's back-off step.
    var outboxFailures = 0
    /// Entries backing off alone (a failure of that entry only), and those whose stored retry time
    /// was re-based at the start.
    var entryRetryAt: [Int64: Double] = [:]
    /// When each delivered entry was delivered: its grace runs from there.
    var deliveredAt: [Int64: Double] = [:]
    /// The earliest retry of an entry backing off alone, as the last pass found.
    var nextEntryAttemptAt: Double?
    var nextPullAt: Double?
    /// Failed pulls in a row.
    var pullFailures = 0
    /// When the service loop next wakes by itself.
    var plannedWakeAt: Double?
    /// New edits whose callers wait for their first attempt: sent before the rest of the outbox.
    var urgent: [PendingEdit] = []
    /// The entry whose write is in flight.
    var inFlight: Int64?

    /// Signalled at each step of the outbox's progress: edits waiting for TMDB look again.
    let progress = WakeSignal()
    /// Wakes the service loop early.
    let wake = WakeSignal()

    /// Creates the sync. `time` is the monotonic clock of retries and graces, and the sleep of
    /// `sync(waitSeconds:)` and the service loop (tests pass a virtual one); `now` the wall clock.
    public init(
        remote: any AccountRemote, storage: any AccountStorage, sessions: any AccountSessionStore, settings: Settings = Settings(),
        now: @escaping @Sendable () -> Date = { Date() }, events: any EventLog = DiscardingEventLog(),
        time: TimeSource = .system, health: RemoteHealth? = nil, owner: Owner = .system
    ) {
        self.owner = owner
        self.health = health
        self.remote = remote
        self.storage = storage
        self.sessions = sessions
        self.settings = settings
        self.now = now
        self.time = time
        self.events = events
    }

    // MARK: The service loop

    /// Sends and pulls whenever something is due, until cancelled: after an edit, at each retry
    /// time, and every `pullIntervalSeconds`.
    public func run() async {
        while !Task.isCancelled {
            await pass(pull: isPullDue, force: false, cancellable: true)
            let delay = secondsUntilNextWork()
            plannedWakeAt = time.now() + delay
            await wake.wait(atMostSeconds: delay, sleep: time.sleep)
        }
    }

    /// Runs a pass when the lists are due for a pull or the outbox's pause is over (the refresh
    /// scheduler calls this).
    public func runIfDue() async {
        if isPullDue || outboxRetryAt.map({ $0 <= time.now() }) == true { await pass(pull: isPullDue, force: false) }
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
        return nextPullAt.map { $0 <= time.now() } ?? true
    }

    /// Whether the outbox is pausing after a remote-wide failure.
    var isBackingOff: Bool {
        outboxRetryAt.map { $0 > time.now() } ?? false
    }

    func secondsUntilNextWork() -> Double {
        let current = time.now()
        var next = nextPullAt ?? current + settings.pullIntervalSeconds
        if let retry = outboxRetryAt { next = min(next, retry) }
        if let entryRetry = nextEntryAttemptAt { next = min(next, entryRetry) }
        return min(settings.pullIntervalSeconds, max(0.05, next - current))
    }

    /// Wakes the service loop when something is due (at `instant`, monotonic) before it would
    /// wake by itself (a retry scheduled by a pass an edit or a refresh started).
    func due(at instant: Double) {
        if plannedWakeAt.map({ instant < $0 }) ?? false { wake.signal() }
    }

    /// The wall-clock time of `instant` on the monotonic clock, for people.
    func wallClock(_ instant: Double) -> Date {
        now().addingTimeInterval(instant - time.now())
    }

    // MARK: Passes

    /// Runs one pass (send what is due, then pull when asked or due), or joins the running one and
    /// has it go round once more. `cancellable`: cancelling the caller stops the pass (the service
    /// loop at shutdown); other callers only stop waiting for it.
    func pass(pull: Bool, force: Bool, cancellable: Bool = false) async {
        let task = startPass(pull: pull, force: force)
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            if cancellable { task.cancel() }
        }
    }

    /// Starts a pass, or has the running one go round again, at once (no suspension), so that an
    /// urgent entry queued before this call is seen by a drain that has not begun yet. (Started
    /// from a `Task`, a pass that ended before that task ran emptied `urgent`, and the edit's
    /// caller could be told "pending" for a write sent a moment later.)
    @discardableResult
    func startPass(pull: Bool, force: Bool) -> Task<Void, Never> {
        wantsPull = wantsPull || pull
        forceNext = forceNext || force
        if let running = passTask {
            rerun = true
            return running
        }
        let task = Task { await self.passLoop() }
        passTask = task
        return task
    }

    func passLoop() async {
        // Background work of its owner, whoever started it (an edit's call, the refresh): one
        // user's drain takes turns with the others' requests (`RateLimitLane`). Should leaving
        // the lane's scope ever suspend, a pass asked for meanwhile (`rerun`) still runs before
        // the loop lets go of `passTask` (its urgent entry would be dropped below).
        repeat {
            await RateLimitLane.$current.withValue(RateLimitLane(owner: owner, priority: .background)) {
                await passes()
            }
        } while rerun && !Task.isCancelled
        passTask = nil
        urgent.removeAll()
        progress.signal()
    }

    private func passes() async {
        repeat {
            rerun = false
            let force = forceNext
            forceNext = false
            await drainOnce()
            if wantsPull, !Task.isCancelled {
                wantsPull = false
                await pullOnce(force: force)
            }
            progress.signal()
        } while rerun && !Task.isCancelled
    }

    func backoff(attempt: Int, retryAfter: Int?) -> Double {
        RetryAfter.pause(retryAfter: retryAfter, cap: settings.maxBackoffSeconds) {
            Backoff(initialSeconds: settings.initialBackoffSeconds, maxSeconds: settings.maxBackoffSeconds).seconds(afterFailures: attempt)
        }
    }

    func note(error message: String) {
        lastError = message
    }

    func scrubbed(_ error: any Error, session: AccountSession) -> String {
        let text = (error as? MoviesError)?.message ?? "\(type(of: error))"
        return text.replacingOccurrences(of: session.sessionID, with: "<redacted>")
    }
}
