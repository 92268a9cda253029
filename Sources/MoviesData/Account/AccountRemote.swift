import FoundationEssentials
import MoviesDomain

/// Port: TMDB's authentication and account endpoints (v3). Adapter: `TMDBAccountRemote`; tests and
/// the simulation use an in-memory account.
///
/// Errors are `MoviesError`s carrying TMDB's `httpStatus` and `tmdbCode` when TMDB answered, as
/// `MoviesRemote` documents; `AccountFailure` classifies them. No message holds the session id.
public protocol AccountRemote: Sendable {
    /// `GET /3/authentication/token/new`: a request token for the user to approve.
    func createRequestToken() async throws -> AccountRequestToken
    /// `POST /3/authentication/session/new`: the session once the user approved `requestToken`
    /// (TMDB code 17 before that, 33 when it expired).
    func createSession(requestToken: String) async throws -> String
    /// `DELETE /3/authentication/session`.
    func deleteSession(_ sessionID: String) async throws
    /// `GET /3/account`: the account id and user name of `sessionID`.
    func accountDetails(sessionID: String) async throws -> (id: Int, username: String?)
    /// One page (20 movies, oldest first) of `list`: `GET /3/account/{id}/{watchlist,favorite,rated}/movies`.
    func listPage(_ list: AccountList, session: AccountSession, page: Int) async throws -> AccountListPage
    /// Sends `edit`: `POST /3/account/{id}/watchlist|favorite`, `POST|DELETE /3/movie/{id}/rating`.
    /// Returns TMDB's `status_code` (1, 12 or 13) when TMDB's answer confirms the change; an answer
    /// that does not (an unreadable body, `success: false`) throws, and the edit stays pending.
    func send(_ edit: AccountEdit, session: AccountSession) async throws -> Int
}

/// A request token and when it expires.
public struct AccountRequestToken: Sendable, Hashable {
    /// The token (shown in the approval address; not a secret once approved and used).
    public var token: String
    /// When it expires, when TMDB said.
    public var expiresAt: Date?

    /// Creates a token.
    public init(token: String, expiresAt: Date?) {
        self.token = token
        self.expiresAt = expiresAt
    }
}

/// One page of an account list.
public struct AccountListPage: Sendable, Hashable {
    /// The movies on it.
    public var items: [AccountItem]
    /// TMDB's page count (at least 1).
    public var totalPages: Int

    /// Creates a page.
    public init(items: [AccountItem], totalPages: Int) {
        self.items = items
        self.totalPages = totalPages
    }
}
