import FoundationEssentials
import MoviesDomain

/// TMDB's health, decided from the outcomes of remote calls (DESIGN §4), and the gate that skips
/// the network while it is known to be down so offline answers never wait for timeouts.
///
/// - After `failureThreshold` consecutive availability failures (transport error, timeout, 5xx)
///   the state is `offline` and the network is skipped for a backoff period that doubles from
///   `initialBackoffSeconds` up to `maxBackoffSeconds`, jittered.
/// - A 429 is `rateLimited` until its `Retry-After` (or a jittered backoff).
/// - A rejected credential is `authRejected`: its own state, never offline; calls are retried at
///   the backoff pace.
/// - Any success is `online` and resets the failures.
public actor RemoteHealth: RemoteStatusRepository {
    /// Thresholds and backoff bounds.
    public struct Configuration: Sendable, Hashable {
        /// Consecutive availability failures before the remote is considered offline.
        public var failureThreshold: Int
        /// The first backoff period, in seconds.
        public var initialBackoffSeconds: Double
        /// The longest backoff period, in seconds.
        public var maxBackoffSeconds: Double
        /// The jitter as a fraction of the period: 0.2 spreads a period over ±20 %.
        public var jitterFraction: Double

        /// Creates a configuration (defaults: 3 failures, 5 s doubling up to 5 min, ±20 %).
        public init(failureThreshold: Int = 3, initialBackoffSeconds: Double = 5, maxBackoffSeconds: Double = 300, jitterFraction: Double = 0.2) {
            self.failureThreshold = max(1, failureThreshold)
            self.initialBackoffSeconds = initialBackoffSeconds
            self.maxBackoffSeconds = maxBackoffSeconds
            self.jitterFraction = jitterFraction
        }
    }

    private let configuration: Configuration
    private let now: @Sendable () -> Date
    private let randomUnit: @Sendable () -> Double
    private var state: RemoteStatus.State = .unknown
    private var since: Date?
    private var lastError: String?
    private var retryAt: Date?
    private var consecutiveFailures = 0
    private var backoffLevel = 0

    /// Creates a health tracker.
    /// - Parameters:
    ///   - now: the clock.
    ///   - randomUnit: a random number in `0..<1` for jitter (0.5 means no jitter).
    public init(
        configuration: Configuration = Configuration(),
        now: @escaping @Sendable () -> Date = { Date() },
        randomUnit: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.configuration = configuration
        self.now = now
        self.randomUnit = randomUnit
    }

    /// The current status.
    public func remoteStatus() -> RemoteStatus {
        RemoteStatus(state: state, since: since, lastError: lastError, retryAt: retryAt, consecutiveFailures: consecutiveFailures)
    }

    /// Whether a remote call may be attempted at `date`.
    public func shouldAttempt(at date: Date) -> Bool {
        guard let retryAt else { return true }
        return date >= retryAt
    }

    /// `nil` when a remote call may be made now; otherwise the ready-made error to answer with
    /// (`remoteUnavailable` while offline or rate limited, `remoteRejected` while the credential is
    /// rejected), carrying `retryAfterSeconds`.
    public func gate() -> MoviesError? {
        let date = now()
        guard let retryAt, date < retryAt else { return nil }
        let wait = max(1, Int(retryAt.timeIntervalSince(date).rounded(.up)))
        switch state {
        case .authRejected:
            return MoviesError(
                code: .remoteRejected,
                message: "TMDB rejected the API credential; check the configured token (next try in \(wait) s)",
                retryAfterSeconds: wait, httpStatus: 401, tmdbCode: 7)
        case .rateLimited:
            return MoviesError(code: .remoteUnavailable, message: "TMDB is rate limiting requests; retry in \(wait) s", retryAfterSeconds: wait, httpStatus: 429)
        default:
            let reason = lastError.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 } ?? "TMDB is unreachable"
            return MoviesError(code: .remoteUnavailable, message: "\(reason); not trying again for \(wait) s", retryAfterSeconds: wait)
        }
    }

    /// Records a successful call (including a 304): the remote is online.
    public func recordSuccess() {
        transition(to: .online)
        consecutiveFailures = 0
        backoffLevel = 0
        retryAt = nil
        lastError = nil
    }

    /// Records a failed call and updates the state from what the failure says about the remote.
    public func recordFailure(_ error: MoviesError) {
        let date = now()
        if error.isAuthRejection {
            consecutiveFailures += 1
            lastError = error.message
            transition(to: .authRejected)
            retryAt = date.addingTimeInterval(nextBackoff())
            return
        }
        switch error.code {
        case .remoteUnavailable where error.httpStatus == 429:
            lastError = error.message
            transition(to: .rateLimited)
            let wait = error.retryAfterSeconds.map(Double.init) ?? nextBackoff()
            retryAt = date.addingTimeInterval(wait)
        case .remoteUnavailable:
            // The state follows the last outcome at once; the network is skipped (backoff) only
            // after `failureThreshold` consecutive failures, so one lost packet costs no backoff.
            consecutiveFailures += 1
            lastError = error.message
            transition(to: .offline)
            if consecutiveFailures >= configuration.failureThreshold {
                retryAt = date.addingTimeInterval(nextBackoff())
            }
        case .notFound, .remoteRejected:
            // TMDB answered: it is reachable, and the request itself was at fault.
            recordSuccess()
        default:
            // Cancellation or an undecodable body says nothing about reachability.
            break
        }
    }

    /// The current backoff period, jittered; doubles the next one.
    private func nextBackoff() -> Double {
        let base = min(configuration.maxBackoffSeconds, configuration.initialBackoffSeconds * Double(1 << min(backoffLevel, 30)))
        backoffLevel += 1
        let factor = 1 - configuration.jitterFraction + 2 * configuration.jitterFraction * randomUnit()
        return max(0, base * factor)
    }

    private func transition(to newState: RemoteStatus.State) {
        if state != newState {
            state = newState
            since = now()
        }
    }
}
