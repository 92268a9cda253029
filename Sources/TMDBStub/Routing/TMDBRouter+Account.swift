extension TMDBRouter {
    /// The answer to an account or login route: the session is checked first (401 code 3), then
    /// the path's ids, then the body.
    func accountResponse(_ route: AccountRoute, to request: HTTPRequest, sessionsExpired: Bool) -> HTTPResponse {
        switch route {
        case .unsupportedMethod: return Self.notFound
        case .newToken: return newRequestToken()
        case .newSession: return newSession(body: request.body)
        case .deleteSession: return deleteSession(body: request.body, sessionsExpired: sessionsExpired)
        default: break
        }
        guard !sessionsExpired, let sessionID = request.query["session_id"], account.isValid(sessionID: sessionID) else {
            return Self.authenticationFailed
        }
        switch route {
        case .details(let accountID):
            guard accountID.map(Self.isAccountID) ?? true else { return Self.notFound }
            return accountDetails
        case .list(let list, let accountID):
            guard Self.isAccountID(accountID) else { return Self.notFound }
            return movies(on: list, request.query)
        case .mark(let list, let accountID):
            guard Self.isAccountID(accountID) else { return Self.notFound }
            return mark(list, body: request.body)
        case .rate(let movieID):
            return rate(movieIDText: movieID, body: request.body)
        case .removeRating(let movieID):
            return removeRating(movieIDText: movieID)
        case .states(let movieID):
            return accountStates(movieIDText: movieID)
        case .newToken, .newSession, .deleteSession, .unsupportedMethod:
            return Self.notFound
        }
    }

    /// How many movies an account list page holds.
    static let accountPageSize = 20

    private static func isAccountID(_ text: String) -> Bool {
        Int(text) == StubAccount.id
    }

    /// `GET /3/account`: the account's details.
    private var accountDetails: HTTPResponse {
        .json(.object([
            ("id", .int(StubAccount.id)), ("username", .string(StubAccount.username)), ("name", .string("")),
            ("include_adult", .bool(false)), ("iso_639_1", .string("en")), ("iso_3166_1", .string("US")),
            ("avatar", .object([("tmdb", .object([("avatar_path", .null)]))])),
        ]))
    }

    /// `GET /3/account/{id}/{list}/movies?page&sort_by`: 20 a page, in the order added
    /// (`created_at.asc`, the default) or the reverse (`created_at.desc`); rated movies carry `rating`.
    private func movies(on list: AccountList, _ query: [String: String]) -> HTTPResponse {
        guard let page = Int(query["page"] ?? "1"), (1...500).contains(page) else { return Self.invalidPage }
        let state = account.snapshot
        var ids = state.ids(on: list)
        if query["sort_by"] == "created_at.desc" { ids.reverse() }
        let size = Self.accountPageSize
        let first = (page - 1) * size
        let items = first < ids.count ? Array(ids[first..<min(ids.count, first + size)]) : []
        let results: [JSONValue] = items.map { id in
            let movie = catalogue.movie(id: id)?.searchResultJSON ?? StubMovie.placeholderSearchResultJSON(id: id)
            guard list == .rated, case .object(let members) = movie, let rating = state.rating(of: id) else { return movie }
            return .object(members + [("rating", .double(rating))])
        }
        return .json(.object([
            ("page", .int(page)),
            ("results", .array(results)),
            ("total_pages", .int(max(1, (ids.count + size - 1) / size))),
            ("total_results", .int(ids.count)),
        ]))
    }

    /// `POST /3/account/{id}/{watchlist|favorite}` with `{"media_type":"movie","media_id":603,
    /// "watchlist":true}` (or `"favorite"`): adds (201 code 1, or 12 when there) or removes (200 code 13).
    private func mark(_ list: AccountList, body: [UInt8]) -> HTTPResponse {
        guard let object = JSONBody(body), object.string("media_type") == "movie",
              let id = object.integer("media_id"), let on = object.bool(list.rawValue) else { return Self.invalidParameters }
        guard id > 0 else { return Self.invalidID }
        guard catalogue.movie(id: id) != nil else { return Self.notFound }
        let outcome = list == .favorite ? account.setFavorite(movieID: id, on) : account.setWatchlist(movieID: id, on)
        return Self.answer(to: outcome)
    }
}
