import FoundationEssentials

/// How the account's outbox is doing, for `Status` and `movies sync`.
public struct AccountSyncStatus: Sendable, Hashable, Codable {
    enum CodingKeys: String, CodingKey {
        case activity, username, pending, unconfirmed, rejected, lastSuccessAt, lastError, pulledAt, nextAttemptAt
        case accountID = "accountId"
    }

    /// What the outbox is doing.
    public enum Activity: String, Sendable, Hashable, CaseIterable, Codable {
        /// Nobody is signed in.
        case signedOut = "signed_out"
        /// Nothing to send.
        case idle
        /// Sending edits or pulling the lists.
        case syncing
        /// TMDB cannot be reached (or rate limits): edits wait and are tried again.
        case offline
        /// TMDB refused the session: edits are kept until the user signs in again.
        case blockedOnAuth = "blocked_on_auth"
    }

    /// What the outbox is doing.
    public var activity: Activity
    /// The signed-in account (absent when signed out).
    public var accountID: Int?
    /// Its user name.
    public var username: String?
    /// Edits not yet on TMDB (pending or blocked).
    public var pending: Int
    /// Edits TMDB accepted and a pull has not shown yet.
    public var unconfirmed: Int
    /// Edits TMDB refused, kept so the user can see why.
    public var rejected: Int
    /// When an edit last reached TMDB, or the lists were last pulled.
    public var lastSuccessAt: Date?
    /// The last failure.
    public var lastError: String?
    /// When the lists were last pulled.
    public var pulledAt: Date?
    /// When waiting edits are tried again.
    public var nextAttemptAt: Date?

    /// Creates a status.
    public init(
        activity: Activity, accountID: Int? = nil, username: String? = nil, pending: Int = 0, unconfirmed: Int = 0, rejected: Int = 0,
        lastSuccessAt: Date? = nil, lastError: String? = nil, pulledAt: Date? = nil, nextAttemptAt: Date? = nil
    ) {
        self.activity = activity
        self.accountID = accountID
        self.username = username
        self.pending = pending
        self.unconfirmed = unconfirmed
        self.rejected = rejected
        self.lastSuccessAt = lastSuccessAt
        self.lastError = lastError
        self.pulledAt = pulledAt
        self.nextAttemptAt = nextAttemptAt
    }

    /// Whether every edit is on TMDB and shown by its lists.
    public var isSettled: Bool { pending == 0 && unconfirmed == 0 }
}
