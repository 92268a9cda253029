/// A request for one of TMDB's login and account routes, told from its method and path; the
/// server asks it which requests are account writes (for the `writesOnly` and `dropAfterApply`
/// faults), the router which answer to give.
enum AccountRoute: Equatable {
    /// `GET /3/authentication/token/new`.
    case newToken
    /// `POST /3/authentication/session/new`.
    case newSession
    /// `DELETE /3/authentication/session`.
    case deleteSession
    /// `GET /3/account` (no id) or `GET /3/account/{account_id}`.
    case details(accountID: String?)
    /// `GET /3/account/{account_id}/{watchlist|favorite|rated}/movies`.
    case list(AccountList, accountID: String)
    /// `POST /3/account/{account_id}/{watchlist|favorite}`.
    case mark(AccountList, accountID: String)
    /// `POST /3/movie/{id}/rating`.
    case rate(movieID: String)
    /// `DELETE /3/movie/{id}/rating`.
    case removeRating(movieID: String)
    /// `GET /3/movie/{id}/account_states`.
    case states(movieID: String)
    /// One of these paths with a method it does not take (TMDB's 404 code 34).
    case unsupportedMethod

    /// The route of `method` on `path`, nil when the path is none of the account routes.
    init?(method: String, path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 3, parts[0].isEmpty, parts[1] == "3" else { return nil }
        let route: AccountRoute
        let expected: String
        switch (parts[2], Array(parts.dropFirst(3))) {
        case ("authentication", ["token", "new"]): (route, expected) = (.newToken, "GET")
        case ("authentication", ["session", "new"]): (route, expected) = (.newSession, "POST")
        case ("authentication", ["session"]): (route, expected) = (.deleteSession, "DELETE")
        case ("account", []): (route, expected) = (.details(accountID: nil), "GET")
        case ("account", let rest) where rest.count == 1 && !rest[0].isEmpty:
            (route, expected) = (.details(accountID: rest[0]), "GET")
        case ("account", let rest) where rest.count == 3 && rest[2] == "movies":
            guard let list = AccountList(rawValue: rest[1]) else { return nil }
            (route, expected) = (.list(list, accountID: rest[0]), "GET")
        case ("account", let rest) where rest.count == 2 && (rest[1] == "watchlist" || rest[1] == "favorite"):
            guard let list = AccountList(rawValue: rest[1]) else { return nil }
            (route, expected) = (.mark(list, accountID: rest[0]), "POST")
        case ("movie", let rest) where rest.count == 2 && rest[1] == "rating":
            if method == "DELETE" {
                self = .removeRating(movieID: rest[0])
                return
            }
            (route, expected) = (.rate(movieID: rest[0]), "POST")
        case ("movie", let rest) where rest.count == 2 && rest[1] == "account_states":
            (route, expected) = (.states(movieID: rest[0]), "GET")
        default:
            return nil
        }
        self = method == expected ? route : .unsupportedMethod
    }

    /// Whether the route needs a valid `session_id` (401 code 3 without one).
    var needsSession: Bool {
        switch self {
        case .newToken, .newSession, .unsupportedMethod: false
        case .deleteSession, .details, .list, .mark, .rate, .removeRating, .states: true
        }
    }

    /// Whether the route writes the account (watchlist, favourites, rating): the requests the
    /// `writesOnly` and `dropAfterApply` faults aim at.
    var isWrite: Bool {
        switch self {
        case .mark, .rate, .removeRating: true
        case .newToken, .newSession, .deleteSession, .details, .list, .states, .unsupportedMethod: false
        }
    }
}
