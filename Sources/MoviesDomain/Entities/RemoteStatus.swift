import FoundationEssentials

/// What the daemon knows about TMDB's reachability, decided from request outcomes (not OS hints).
public struct RemoteStatus: Sendable, Hashable, Codable {
    /// The remote's state.
    public enum State: String, Sendable, Hashable, Codable {
        /// No request has been made yet.
        case unknown
        /// The last request succeeded.
        case online
        /// Requests are failing (transport errors, timeouts, 5xx) or did not answer within the answer
        /// deadline; the network is skipped, and the daemon's probe tries again at `retryAt`.
        case offline
        /// TMDB rejected the credential (code 7): not an outage, a configuration problem.
        case authRejected = "auth_rejected"
        /// TMDB answered 429; callers wait until `retryAt`.
        case rateLimited = "rate_limited"
    }

    public var state: State
    /// Since when the current state holds.
    public var since: Date?
    /// The last failure's description (never containing the credential).
    public var lastError: String?
    /// When the network will be tried again, while offline or rate limited.
    public var retryAt: Date?
    /// Consecutive failed requests.
    public var consecutiveFailures: Int
    /// The shared HTTP cache in front of TMDB, when answers come through one.
    public var sharedCache: SharedCacheStatus?

    /// Creates a status.
    public init(state: State, since: Date? = nil, lastError: String? = nil, retryAt: Date? = nil, consecutiveFailures: Int = 0, sharedCache: SharedCacheStatus? = nil) {
        self.sharedCache = sharedCache
        self.state = state
        self.since = since
        self.lastError = lastError
        self.retryAt = retryAt
        self.consecutiveFailures = consecutiveFailures
    }
}
