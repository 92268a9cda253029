import FoundationEssentials

/// The account's lists as the user sees them: TMDB's state as last pulled, with every edit not yet
/// confirmed applied on top, in the order they were made.
public struct AccountView: Sendable, Hashable {
    /// The TMDB account id.
    public var accountID: Int
    /// The account's user name.
    public var username: String?
    /// Each list's movies: TMDB's order, then movies added here.
    public var lists: [AccountList: [AccountItem]]
    /// When TMDB's lists were last pulled (`nil`: never).
    public var pulledAt: Date?
    /// Whether a session is held: `false` after a sign-out, when these are the lists of the last
    /// account as they were, kept with its waiting edits for the next sign-in.
    public var signedIn: Bool

    /// Creates a view.
    public init(accountID: Int, username: String? = nil, lists: [AccountList: [AccountItem]] = [:], pulledAt: Date? = nil, signedIn: Bool = true) {
        self.accountID = accountID
        self.username = username
        self.lists = lists
        self.pulledAt = pulledAt
        self.signedIn = signedIn
    }

    /// The movies of `list`.
    public func items(_ list: AccountList) -> [AccountItem] { lists[list] ?? [] }
}
