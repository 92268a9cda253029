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

    /// Whether the daemon has a TMDB credential (a token or an API key) to ask TMDB with.
    ///
    /// On the wire a field of its own beside ``state``, not a sixth state: clients that know only
    /// the five states (and decode them strictly, as `movies` 0.2.0 does) still decode a reply that
    /// says the credential is missing.
    public enum Credential: String, Sendable, Hashable, Codable {
        /// A credential is configured: ``state`` says what TMDB made of it.
        case configured
        /// None is configured: TMDB is never asked, answers come from the cache alone, and
        /// ``state`` stays `unknown`.
        case missing
    }

    public var state: State
    /// Whether a credential is configured; `nil` from daemons that do not say (older ones, whose
    /// `auth_rejected` then covered a missing credential too).
    public var credential: Credential?
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
    public init(
        state: State, credential: Credential? = nil, since: Date? = nil, lastError: String? = nil, retryAt: Date? = nil,
        consecutiveFailures: Int = 0, sharedCache: SharedCacheStatus? = nil
    ) {
        self.sharedCache = sharedCache
        self.state = state
        self.credential = credential
        self.since = since
        self.lastError = lastError
        self.retryAt = retryAt
        self.consecutiveFailures = consecutiveFailures
    }
}
