import FoundationEssentials
import MoviesDomain

/// The parameters of an `AccountLogin` reply: signed in, or where to approve the sign-in.
public struct AccountLoginReply: Sendable, Hashable, Codable {
    /// Whether a session is held now.
    public var signedIn: Bool
    /// The account, when signed in.
    public var accountId: Int?
    /// Its user name.
    public var username: String?
    /// Where the user approves the request, when not signed in yet.
    public var approvalUrl: String?
    /// When that request expires.
    public var expiresAt: Date?

    /// The reply for `login`.
    public init(_ login: AccountLogin) {
        signedIn = login.isSignedIn
        accountId = login.accountID
        username = login.username
        approvalUrl = login.approvalURL
        expiresAt = login.expiresAt
    }
}

/// The parameters of an `AccountLogout` reply.
public struct AccountLogoutReply: Sendable, Hashable, Codable {
    /// Edits still waiting in the outbox (sent after the next sign-in to the same account).
    public var pending: Int

    /// Creates a reply.
    public init(pending: Int) { self.pending = pending }
}

/// The parameters of an `AccountEdit` reply: the outbox entry, whether TMDB has it, the outbox.
public struct AccountEditReply: Sendable, Hashable, Codable {
    /// The entry recorded.
    public var entry: PendingEdit
    /// Whether TMDB already accepted it.
    public var onTmdb: Bool
    /// The outbox's state.
    public var sync: AccountSyncStatus

    /// The reply for `result`.
    public init(_ result: AccountEditResult) {
        entry = result.entry
        onTmdb = result.isOnTMDB
        sync = result.sync
    }
}

/// The parameters of an `Account` reply: the account's lists with unconfirmed edits applied.
public struct AccountReply: Sendable, Hashable, Codable {
    /// The account id.
    public var accountId: Int
    /// Its user name.
    public var username: String?
    /// When TMDB's lists were last pulled.
    public var pulledAt: Date?
    /// The watchlist.
    public var watchlist: [AccountItem]
    /// The favourites.
    public var favorites: [AccountItem]
    /// The rated movies, with their ratings.
    public var rated: [AccountItem]
    /// `false` after a sign-out: the last account's lists as they were (absent from a daemon
    /// before 0.3.0, which did not say; read as signed in).
    public var signedIn: Bool?

    /// The reply for `view`.
    public init(_ view: AccountView) {
        accountId = view.accountID
        username = view.username
        pulledAt = view.pulledAt
        watchlist = view.items(.watchlist)
        favorites = view.items(.favorite)
        rated = view.items(.rated)
        signedIn = view.signedIn
    }

    /// The view this reply describes.
    public var view: AccountView {
        AccountView(
            accountID: accountId, username: username, lists: [.watchlist: watchlist, .favorite: favorites, .rated: rated], pulledAt: pulledAt,
            signedIn: signedIn ?? true)
    }
}

/// The parameters of a `Pending` reply: the outbox, oldest first.
public struct PendingReply: Sendable, Hashable, Codable {
    /// The entries (rejected ones included, until dismissed).
    public var entries: [PendingEdit]
    /// The outbox's state.
    public var sync: AccountSyncStatus

    /// Creates a reply.
    public init(entries: [PendingEdit], sync: AccountSyncStatus) {
        self.entries = entries
        self.sync = sync
    }
}

/// The parameters of a `Sync` reply.
public struct SyncReply: Sendable, Hashable, Codable {
    /// The outbox's state when the call ended.
    public var sync: AccountSyncStatus

    /// Creates a reply.
    public init(sync: AccountSyncStatus) { self.sync = sync }
}
