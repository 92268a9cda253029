import FoundationEssentials
import MoviesDomain
import Networking
import SystemSupport

/// Refresh-ahead (DESIGN §4): keeps watchlist entries fresh by refreshing each at about 3/4 of its
/// fresh lifetime, jittered, inside a background request budget.
///
/// Each pass refreshes at most `batchSize` due entries and then waits `batchSize / requestsPerSecond`
/// seconds, so a backlog (after an outage, or at start) is spread out instead of stampeding, and
/// the background rate stays at `requestsPerSecond`. When the remote fails (unreachable, rate
/// limited or rejecting the credential), the scheduler waits out the remote's retry pause (or,
/// when a step failed on the wire, the one `Backoff` from `initialBackoffSeconds` up to
/// `maxBackoffSeconds`, 60 s) and tries one entry per pass until it answers again. The clock and the randomness are injected; `runPass()` is one pass.
public actor RefreshScheduler {
    /// Budget, timing and backoff.
    public struct Configuration: Sendable, Hashable {
        /// Background requests per second.
        public var requestsPerSecond: Double
        /// The most entries refreshed in one pass.
        public var batchSize: Int
        /// An entry is due at this fraction of its fresh lifetime.
        public var aheadFraction: Double
        /// The due time's jitter, as a fraction of the fresh lifetime times `aheadFraction` (±).
        public var jitterFraction: Double
        /// The first backoff after a failure, in seconds.
        public var initialBackoffSeconds: Double
        /// The longest backoff, in seconds.
        public var maxBackoffSeconds: Double
        /// The longest wait between passes when nothing is due, in seconds.
        public var idleSeconds: Double

        /// Creates a configuration (defaults: 10 req/s, 5 per pass, due at 3/4 ±10 %, backoff 5 s to 60 s).
        public init(
            requestsPerSecond: Double = 10, batchSize: Int = 5, aheadFraction: Double = 0.75, jitterFraction: Double = 0.1,
            initialBackoffSeconds: Double = 5, maxBackoffSeconds: Double = 60, idleSeconds: Double = 300
        ) {
            self.requestsPerSecond = max(0.01, requestsPerSecond)
            self.batchSize = max(1, batchSize)
            self.aheadFraction = aheadFraction
            self.jitterFraction = jitterFraction
            self.initialBackoffSeconds = initialBackoffSeconds
            self.maxBackoffSeconds = maxBackoffSeconds
            self.idleSeconds = idleSeconds
        }
    }

    private let refresher: WatchlistRefresher
    private let responses: any ResponseStorage
    private let configuration: Configuration
    private let now: @Sendable () -> Date
    private let randomUnit: @Sendable () -> Double
    private let wake: WakeSignal
    private let changeFeed: ChangeFeedSync?
    private let account: AccountDirectory?
    private var backoffLevel = 0
    private var backoffUntil: Date?
    private var nextRunAt: Date?

    /// Creates a scheduler.
    /// - Parameters:
    ///   - wake: signalled when watchlists change, so new entries are prefetched without waiting.
    ///   - randomUnit: a random number in `0..<1` for jitter (0.5 means none).
    public init(
        refresher: WatchlistRefresher, responses: any ResponseStorage, configuration: Configuration = Configuration(),
        wake: WakeSignal = WakeSignal(),
        now: @escaping @Sendable () -> Date = { Date() }, randomUnit: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        changeFeed: ChangeFeedSync? = nil, account: AccountDirectory? = nil
    ) {
        self.account = account
        self.changeFeed = changeFeed
        self.wake = wake
        self.refresher = refresher
        self.responses = responses
        self.configuration = configuration
        self.now = now
        self.randomUnit = randomUnit
    }

    /// Whether the scheduler is backing off, and when it next runs.
    public func state() -> (state: RefreshStatus.SchedulerState, nextRunAt: Date?) {
        let backingOff = backoffUntil.map { now() < $0 } ?? false
        return (backingOff ? .backingOff : .idle, nextRunAt)
    }

    /// Runs passes until `shutdown` is requested (the pass in progress ends first) or the task is
    /// cancelled; between passes, waits `sleep(delay)` or a wake signal, whichever comes first
    /// (`sleep` throws on cancellation).
    public func run(
        until shutdown: GracefulShutdown = GracefulShutdown(),
        sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .seconds($0)) }
    ) async {
        shutdown.onRequest { [wake] in wake.signal() }
        while !shutdown.isRequested, !Task.isCancelled {
            let delay = await runPass()
            await wake.wait(atMostSeconds: delay, sleep: sleep)
        }
    }

    /// One pass: refreshes up to `batchSize` due entries; returns the seconds until the next pass.
    /// Background work: it honours the remote's retry pause (``RemoteDemand/background``).
    @discardableResult
    public func runPass() async -> Double {
        await RemoteDemand.$current.withValue(.background) {
            await RateLimitLane.$current.withValue(RateLimitLane(uid: nil, priority: .background)) { await backgroundPass() }
        }
    }

    private func backgroundPass() async -> Double {
        let date = now()
        if let until = backoffUntil, date < until { return scheduled(until.timeIntervalSince(date), from: date) }
        // The change feed when due (daily): it marks what changed stale, so the steps below
        // fetch only that, and keeps the rest fresh.
        if let changeFeed { await changeFeed.runIfDue() }
        // The accounts' lists when due (hourly), so its watchlist's movies below are current.
        if let account { await account.runIfDue() }
        var due: [ScheduledStep] = []
        var earliest = date.addingTimeInterval(configuration.idleSeconds)
        for step in await refresher.scheduledSteps() {
            let dueAt = await dueDate(of: step.step, at: date)
            if dueAt <= date { due.append(step) } else { earliest = min(earliest, dueAt) }
        }
        let batch = due.prefix(backoffLevel > 0 ? 1 : configuration.batchSize)
        for step in batch {
            do {
                try await refresher.refreshStep(step)
                backoffLevel = 0
                backoffUntil = nil
            } catch {
                let failure = MoviesError(wrapping: error)
                if failure.code == .remoteUnavailable || failure.isAuthRejection {
                    // The remote's pause when it gave one (the step was not sent), else the back-off.
                    let wait = RetryAfter.pause(retryAfter: failure.retryAfterSeconds, cap: configuration.maxBackoffSeconds) { nextBackoff() }
                    backoffLevel = max(backoffLevel, 1)
                    backoffUntil = date.addingTimeInterval(wait)
                    return scheduled(wait, from: date)
                }
                // A problem with this entry only (not found, undecodable): move on.
            }
        }
        let pace = Double(max(1, batch.count)) / configuration.requestsPerSecond
        if due.count > batch.count { return scheduled(pace, from: date) }
        return scheduled(max(pace, earliest.timeIntervalSince(date)), from: date)
    }

    /// When `step` is due: never-fetched entries now, posters (immutable) only when missing,
    /// others at `aheadFraction` of their fresh lifetime, jittered.
    private func dueDate(of step: RefreshStep, at date: Date) async -> Date {
        guard let entry = try? await responses.response(forKey: step.cacheKey(language: refresher.settings.language)) else { return date }
        if case .poster = step { return .distantFuture }
        let jitter = 1 + configuration.jitterFraction * (2 * randomUnit() - 1)
        return RefreshDue.date(fetchedAt: entry.fetchedAt, expiresAt: entry.expiresAt, aheadFraction: configuration.aheadFraction, jitter: jitter)
    }

    private func nextBackoff() -> Double {
        backoffLevel = min(backoffLevel + 1, 31)
        let backoff = Backoff(initialSeconds: configuration.initialBackoffSeconds, maxSeconds: configuration.maxBackoffSeconds, jitterFraction: 0.2)
        return backoff.seconds(afterFailures: backoffLevel, randomUnit: randomUnit())
    }

    private func scheduled(_ delay: Double, from date: Date) -> Double {
        nextRunAt = date.addingTimeInterval(delay)
        return delay
    }
}
