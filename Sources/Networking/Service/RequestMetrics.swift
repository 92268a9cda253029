import Synchronization
import SystemSupport

/// What the requests sent through ``NetworkService``s counted: each attempt by the endpoint's
/// ``Endpoint/kind`` and its outcome (the HTTP status class, or `failed` without a response), the
/// attempts' latency, the 429s, and the time requests waited for the rate limiter, by priority.
///
/// One instance is shared by every service of one credential (like its `TokenBucketRateLimiter`),
/// so the counts are TMDB's as a whole. Requests take milliseconds: a lock here is nothing next
/// to one (this is never on the path of a cached answer).
public final class RequestMetrics: Sendable {
    /// An attempt's outcome.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// 1xx/2xx answers (`1xx` never reaches here).
        case success = "2xx"
        /// 3xx answers (304 Not Modified).
        case redirection = "3xx"
        /// 4xx answers (429 included).
        case clientError = "4xx"
        /// 5xx answers.
        case serverError = "5xx"
        /// No answer: refused, reset, timed out, DNS or TLS failure.
        case failed

        /// The class of HTTP `status`.
        public init(status: Int) {
            switch status {
            case ..<300: self = .success
            case 300..<400: self = .redirection
            case 400..<500: self = .clientError
            default: self = .serverError
            }
        }
    }

    /// One endpoint kind and outcome.
    public struct Key: Sendable, Hashable {
        /// The endpoint's ``Endpoint/kind``.
        public let kind: String
        /// The attempt's outcome.
        public let outcome: Outcome

        /// Attempts at `kind` that ended with `outcome`.
        public init(kind: String, outcome: Outcome) {
            self.kind = kind
            self.outcome = outcome
        }
    }

    /// A copy of the counts.
    public struct Snapshot: Sendable {
        /// Attempts by endpoint kind and outcome.
        public var attempts: [Key: UInt64] = [:]
        /// The attempts' latency (from sending to the whole answer, or the failure), by endpoint kind.
        public var latency: [String: LatencyHistogram] = [:]
        /// Answers with HTTP 429 (rate limited by TMDB).
        public var rateLimited: UInt64 = 0
        /// Nanoseconds requests waited for a token of the rate limiter, by priority.
        public var waitedNanoseconds: [RateLimitLane.Priority: UInt64] = [:]
    }

    private let state = Mutex(Snapshot())

    /// Counts nothing yet.
    public init() {}

    /// A copy of the counts now.
    public var snapshot: Snapshot { state.withLock { $0 } }

    /// An attempt at `kind` answered with HTTP `status` after `nanoseconds`.
    func answered(_ kind: String, status: Int, nanoseconds: UInt64) {
        state.withLock { state in
            state.attempts[Key(kind: kind, outcome: Outcome(status: status)), default: 0] &+= 1
            state.latency[kind, default: LatencyHistogram()].record(nanoseconds: nanoseconds)
            if status == 429 { state.rateLimited &+= 1 }
        }
    }

    /// An attempt at `kind` failed without an answer after `nanoseconds`.
    func failed(_ kind: String, nanoseconds: UInt64) {
        state.withLock { state in
            state.attempts[Key(kind: kind, outcome: .failed), default: 0] &+= 1
            state.latency[kind, default: LatencyHistogram()].record(nanoseconds: nanoseconds)
        }
    }

    /// A request of `priority` waited `nanoseconds` for a token.
    func waited(_ nanoseconds: UInt64, priority: RateLimitLane.Priority) {
        guard nanoseconds > 0 else { return }
        state.withLock { $0.waitedNanoseconds[priority, default: 0] &+= nanoseconds }
    }
}
