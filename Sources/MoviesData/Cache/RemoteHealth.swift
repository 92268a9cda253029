import FoundationEssentials
import MoviesDomain
import Networking
import SystemSupport

/// TMDB's health, decided from the outcomes of remote calls (DESIGN §4), and the gate that skips
/// the network while it is known to be down so offline answers never wait for timeouts.
///
/// - After `failureThreshold` consecutive availability failures (transport error, timeout, 5xx;
///   one by default) the state is `offline` and a retry pause starts that doubles from
///   `initialBackoffSeconds` up to `maxBackoffSeconds` (60 s), jittered. A call still running
///   after `slowCallSeconds` (the answer deadline) marks the remote offline at once: the callers
///   waiting on it answer without it (``slowCallPatience``), and the next calls answer from the
///   cache without joining the hanging fetch.
/// - The pause governs background work only (``gate(for:)``, ``RemoteDemand``): background work
///   skips the network until it ends (and, while a ``RemoteProbe`` runs, until the probe reaches
///   TMDB); while users ask, the probe checks TMDB at once, at most once every `userProbeSeconds`
///   (5 s), and the users answer from the cache meanwhile (no user call pays for finding out); an
///   explicit command tries at once. So TMDB's return is noticed within seconds of someone
///   asking, and within the pause (at most 60 s) when nobody does.
/// - A 429 is `rateLimited` until its `Retry-After` (or a jittered backoff; `RetryAfter.pause`, up
///   to `maxBackoffSeconds`), for every caller: TMDB asked for that pause.
/// - A rejected credential is `authRejected`: its own state, never offline; calls are retried at
///   the pace above.
/// - With no credential configured (``RemoteStatus/Credential/missing``) nothing is learnt from a
///   call, which never reaches TMDB: the state stays `unknown`, no pause starts, and each call gets
///   the remote's own error saying how to configure one.
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
        /// A remote call still running after this many seconds marks the remote offline; `nil` never.
        public var slowCallSeconds: Double?
        /// While the remote is paused, at most one user call this often goes to TMDB as a probe.
        public var userProbeSeconds: Double

        /// Creates a configuration (defaults: 1 failure, a pause of 5 s doubling up to 60 s, ±20 %,
        /// no slow mark, one user probe every 5 s).
        public init(
            failureThreshold: Int = 1, initialBackoffSeconds: Double = 5, maxBackoffSeconds: Double = 60,
            jitterFraction: Double = 0.2, slowCallSeconds: Double? = nil, userProbeSeconds: Double = 5
        ) {
            self.failureThreshold = max(1, failureThreshold)
            self.initialBackoffSeconds = initialBackoffSeconds
            self.maxBackoffSeconds = maxBackoffSeconds
            self.jitterFraction = jitterFraction
            self.slowCallSeconds = slowCallSeconds.map { max(0, $0) }
            self.userProbeSeconds = max(0, userProbeSeconds)
        }

        /// The retry pause's back-off.
        var backoff: Backoff {
            Backoff(initialSeconds: initialBackoffSeconds, maxSeconds: maxBackoffSeconds, jitterFraction: jitterFraction)
        }
    }

    let configuration: Configuration
    /// Whether a credential is configured: reported in the status, and with none, failures
    /// (which only say that there is none) change nothing.
    let credential: RemoteStatus.Credential
    let now: @Sendable () -> Date
    private let randomUnit: @Sendable () -> Double
    /// Sleeps for the slow-call mark (tests pass a virtual one).
    let sleep: @Sendable (Double) async throws -> Void
    /// Where state transitions are reported, once each.
    let events: any EventLog
    /// Whether a ``RemoteProbe`` decides when an offline remote is back.
    private(set) var probeAttached = false
    private var state: RemoteStatus.State = .unknown
    private var since: Date?
    private var lastError: String?
    private var retryAt: Date?
    private var consecutiveFailures = 0
    private var sharedCache: SharedCacheStatus?
    private var backoffLevel = 0
    /// When a user's call last asked for a probe during the pause.
    private var lastUserProbeAt: Date?
    /// A user asked during the pause: the probe checks TMDB now instead of at the pause's end.
    private var userProbeRequested = false

    /// Creates a health tracker.
    /// - Parameters:
    ///   - now: the clock.
    ///   - randomUnit: a random number in `0..<1` for jitter (0.5 means no jitter).
    ///   - sleep: waits for the slow-call mark.
    ///   - events: where transitions (offline, online, rate limited, token rejected) are reported.
    ///   - credential: whether the remote has a credential to ask TMDB with.
    public init(
        configuration: Configuration = Configuration(),
        credential: RemoteStatus.Credential = .configured,
        now: @escaping @Sendable () -> Date = { Date() },
        randomUnit: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .seconds($0)) },
        events: any EventLog = DiscardingEventLog()
    ) {
        self.configuration = configuration
        self.credential = credential
        self.now = now
        self.randomUnit = randomUnit
        self.sleep = sleep
        self.events = events
    }

    /// Called by a ``RemoteProbe`` when it starts: from then on an offline remote stays gated until
    /// the probe reaches it.
    func attachProbe() { probeAttached = true }

    /// Called when the probe stops: the gate opens at `retryAt` again.
    func detachProbe() { probeAttached = false }

    /// Called by the probe as it sends its request: a user's request for a probe is being served.
    func takeProbeRequest() { userProbeRequested = false }

    /// Seconds until the probe should try the remote: 0 when a user asked during the pause, `nil`
    /// when no probe is needed (not offline).
    func probeDelay() -> Double? {
        if userProbeRequested { return 0 }
        guard state == .offline else { return nil }
        guard let retryAt else { return 0 }
        return max(0, retryAt.timeIntervalSince(now()))
    }

    /// The current status.
    public func remoteStatus() -> RemoteStatus {
        RemoteStatus(
            state: state, credential: credential, since: since, lastError: lastError, retryAt: retryAt,
            consecutiveFailures: consecutiveFailures, sharedCache: sharedCache)
    }

    /// Records what a shared cache in front of TMDB said about an answer (`X-Cache-Status`, `Via`).
    public func recordSharedCache(status: String, via: String?) {
        var current = sharedCache ?? SharedCacheStatus(lastStatus: status)
        current.lastStatus = status
        current.via = via ?? current.via
        if SharedCacheStatus.isHit(status) { current.hits += 1 } else { current.misses += 1 }
        sharedCache = current
    }

    /// Whether a remote call may be attempted at `date` (by background work).
    public func shouldAttempt(at date: Date) -> Bool {
        guard let retryAt else { return true }
        return date >= retryAt
    }

    /// Whether background work is paused now: the retry pause is running, or it ended and the
    /// probe has not reached TMDB yet. Not while rate limited: that pause is TMDB's, for everyone.
    public func isPaused() -> Bool {
        guard state != .rateLimited else { return false }
        return pausedError(at: now()) != nil
    }

    /// Whether TMDB answered the last call (or nothing is known yet): not offline, rate limited or
    /// rejecting the credential. An account edit waits for TMDB only then.
    public func isAnswering() -> Bool {
        state == .online || state == .unknown
    }

    /// `nil` when a remote call for `demand` may be made now; otherwise the ready-made error to
    /// answer with (`remoteUnavailable` while offline or rate limited, `remoteRejected` while the
    /// credential is rejected), carrying `retryAfterSeconds`.
    ///
    /// Background work honours the pause. During it, an interactive call asks the ``RemoteProbe``
    /// to check TMDB now, unless a user did in the last `userProbeSeconds`, and answers at once
    /// (from the cache, or with this error: TMDB is not asked for it); an explicit call always goes
    /// through. A 429's `Retry-After` holds for every demand.
    public func gate(for demand: RemoteDemand = .background) -> MoviesError? {
        let date = now()
        guard let paused = pausedError(at: date) else { return nil }
        if state == .rateLimited { return paused }
        switch demand {
        case .background:
            return paused
        case .explicit:
            return nil
        case .interactive:
            if lastUserProbeAt.map({ date.timeIntervalSince($0) >= configuration.userProbeSeconds }) ?? true {
                lastUserProbeAt = date
                userProbeRequested = true
            }
            let nextSlot = (lastUserProbeAt ?? date).addingTimeInterval(configuration.userProbeSeconds).timeIntervalSince(date)
            let pauseLeft = retryAt.map { $0.timeIntervalSince(date) } ?? nextSlot
            return unavailable(wait: max(0, min(nextSlot, pauseLeft)))
        }
    }

    /// The error background work answers with now, `nil` when it may call TMDB.
    private func pausedError(at date: Date) -> MoviesError? {
        let probed = probeAttached && state == .offline
        guard let retryAt, date < retryAt || probed else { return nil }
        return unavailable(wait: retryAt.timeIntervalSince(date))
    }

    /// The error of a call not sent for `seconds` more, in the words of the state.
    private func unavailable(wait seconds: Double) -> MoviesError {
        let wait = max(1, Int(seconds.rounded(.up)))
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
        let previous = state
        let downSince = since
        if transition(to: .online) {
            switch previous {
            case .unknown:
                events.record(DataEvent(.info, "remote.online", "TMDB is reachable"))
            default:
                let seconds = downSince.map { max(0, Int(now().timeIntervalSince($0).rounded())) }
                let after = seconds.map { " after \($0) s \(Self.describe(previous))" } ?? ""
                events.record(DataEvent(.notice, "remote.online", "TMDB is reachable again\(after); fresh answers resume"))
            }
        }
        consecutiveFailures = 0
        backoffLevel = 0
        retryAt = nil
        lastError = nil
        lastUserProbeAt = nil
        userProbeRequested = false
    }

    /// Records a failed call and updates the state from what the failure says about the remote.
    public func recordFailure(_ error: MoviesError) {
        // Without a credential no call reaches TMDB: its failure says nothing about TMDB.
        guard credential == .configured else { return }
        let date = now()
        if error.isAuthRejection {
            consecutiveFailures += 1
            lastError = error.message
            retryAt = date.addingTimeInterval(nextBackoff())
            if transition(to: .authRejected) {
                let status = error.httpStatus.map { " (HTTP \($0))" } ?? ""
                let reason = error.message.hasSuffix(".") ? String(error.message.dropLast()) : error.message
                events.record(DataEvent(.warning, "remote.auth-rejected", "TMDB credential rejected\(status): \(reason); answering from the cache"))
            }
            return
        }
        switch error.code {
        case .remoteUnavailable where error.httpStatus == 429:
            lastError = error.message
            let wait = RetryAfter.pause(retryAfter: error.retryAfterSeconds, cap: configuration.maxBackoffSeconds) { nextBackoff() }
            retryAt = date.addingTimeInterval(wait)
            if transition(to: .rateLimited) {
                let after = error.retryAfterSeconds.map { "Retry-After \($0) s" } ?? "no Retry-After"
                events.record(DataEvent(.warning, "remote.rate-limited", "TMDB is rate limiting requests (HTTP 429, \(after)); answering from the cache until \(Self.clockTime(retryAt ?? date))"))
            }
        case .remoteUnavailable:
            // The state follows the last outcome at once; the network is skipped (backoff) only
            // after `failureThreshold` consecutive failures, so one lost packet costs no backoff.
            consecutiveFailures += 1
            lastError = error.message
            if consecutiveFailures >= configuration.failureThreshold {
                retryAt = date.addingTimeInterval(nextBackoff())
            }
            if transition(to: .offline) { reportOffline(error.message) }
        case .notFound, .remoteRejected:
            // TMDB answered: it is reachable, and the request itself was at fault.
            recordSuccess()
        default:
            // Cancellation or an undecodable body says nothing about reachability.
            break
        }
    }

    /// The current pause, jittered; doubles the next one (up to the cap).
    private func nextBackoff() -> Double {
        backoffLevel = min(backoffLevel + 1, 31)
        return configuration.backoff.seconds(afterFailures: backoffLevel, randomUnit: randomUnit())
    }

    /// Records that a call has been running for `seconds` without an answer: unless the remote is
    /// already known to be down, it is now offline, so the next calls answer from the cache at once.
    func recordSlow(afterSeconds seconds: Double) {
        guard credential == .configured, state == .online || state == .unknown else { return }
        consecutiveFailures += 1
        lastError = "TMDB did not answer within \(Self.formatted(seconds)) s"
        retryAt = now().addingTimeInterval(nextBackoff())
        if transition(to: .offline) { reportOffline(lastError ?? "") }
    }

    private func reportOffline(_ reason: String) {
        let next = retryAt.map { "; next check at \(Self.clockTime($0))" } ?? ""
        let fragment = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
        events.record(DataEvent(.notice, "remote.offline", "TMDB is offline (\(fragment)); answering from the cache\(next)"))
    }

    /// Moves to `newState`; returns whether the state changed (callers report the transition).
    @discardableResult
    private func transition(to newState: RemoteStatus.State) -> Bool {
        guard state != newState else { return false }
        state = newState
        since = now()
        return true
    }

    private static func describe(_ state: RemoteStatus.State) -> String {
        switch state {
        case .offline: "offline"
        case .rateLimited: "rate limited"
        case .authRejected: "with the token rejected"
        case .unknown, .online: "unknown"
        }
    }

    static func formatted(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    /// `date` as `HH:MM:SS` UTC, for "next check at" (the journal adds the date).
    static func clockTime(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.up)) % 86_400
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60)) UTC"
    }
}
