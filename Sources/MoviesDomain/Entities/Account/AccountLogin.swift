import FoundationEssentials

/// Where signing in to TMDB stands.
public struct AccountLogin: Sendable, Hashable {
    /// Signed in: the account and user name.
    public var accountID: Int?
    /// The account's user name.
    public var username: String?
    /// Waiting for the user: the page where they approve moviesd's request.
    public var approvalURL: String?
    /// When that request expires (TMDB: 60 minutes).
    public var expiresAt: Date?

    /// Creates a state.
    public init(accountID: Int? = nil, username: String? = nil, approvalURL: String? = nil, expiresAt: Date? = nil) {
        self.accountID = accountID
        self.username = username
        self.approvalURL = approvalURL
        self.expiresAt = expiresAt
    }

    /// Whether a session is held.
    public var isSignedIn: Bool { accountID != nil }
}
