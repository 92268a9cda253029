/// A signed-in TMDB user session: the secret `session_id` and the account it belongs to.
///
/// Its description never shows the session id.
public struct AccountSession: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// TMDB's `session_id`: a secret, sent as a query parameter on account calls. Never log it.
    public var sessionID: String
    /// The account id.
    public var accountID: Int
    /// The user name.
    public var username: String?

    /// Creates a session.
    public init(sessionID: String, accountID: Int, username: String?) {
        self.sessionID = sessionID
        self.accountID = accountID
        self.username = username
    }

    /// `AccountSession(account 22011, stub-user)`: no secret.
    public var description: String { "AccountSession(account \(accountID), \(username ?? "?"))" }
    /// The same as `description`.
    public var debugDescription: String { description }
    /// A mirror without the secret, so `dump` shows none.
    public var customMirror: Mirror { Mirror(self, children: ["accountID": accountID, "username": username as Any]) }
}
