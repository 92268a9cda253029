extension ControlRouter {
    /// The account endpoints: `GET /account`; `POST /account` replacing the lists present in
    /// `{"watchlist":[603],"favorite":[],"rated":{"550":7}}` (edits on TMDB's website, not counted as
    /// writes; ratings in id order); `DELETE /account` emptying lists, ratings and the write log;
    /// `POST /account/approve` (`{"request_token":…}`, or `{}` / `{"all":true}` for every pending
    /// token); `POST /account/expire-sessions`.
    func accountResponse(to request: HTTPRequest) -> HTTPResponse {
        let account = server.account
        switch (request.method, request.path) {
        case ("POST", "/account"):
            guard let body = JSONBody(request.body) else {
                return Self.error(400, "The body must be a JSON object such as {\"watchlist\":[603],\"favorite\":[],\"rated\":{\"550\":7}}.")
            }
            do {
                let watchlist = try Self.ids(body, "watchlist")
                let favorite = try Self.ids(body, "favorite")
                let ratings = try Self.ratings(body)
                account.replace(watchlist: watchlist, favorite: favorite, ratings: ratings)
            } catch {
                return Self.error(400, error.description)
            }
        case ("DELETE", "/account"):
            account.clear()
        case ("POST", "/account/approve"):
            return approve(request.body)
        case ("POST", "/account/expire-sessions"):
            return .json(.object([("expired", .int(account.expireSessions()))]))
        default:
            break
        }
        return .json(Self.json(account.snapshot))
    }

    /// `POST /account/approve`: `{"approved":[tokens]}`, or 400 for an unknown token or a bad body.
    private func approve(_ bytes: [UInt8]) -> HTTPResponse {
        guard let body = bytes.isEmpty ? JSONBody(members: [:]) : JSONBody(bytes) else {
            return Self.error(400, "The body must be a JSON object: {\"request_token\":\"…\"}, or {} for every pending token.")
        }
        if let token = body.string("request_token") {
            guard server.account.approve(token: token) else {
                return Self.error(400, "Unknown request token \"\(token)\": never issued, used up or expired.")
            }
            return .json(.object([("approved", .array([.string(token)]))]))
        }
        guard !body.has("request_token"), body.bool("all") ?? !body.has("all") else {
            return Self.error(400, "Give {\"request_token\":\"…\"}, or {} or {\"all\":true} for every pending token.")
        }
        return .json(.object([("approved", .array(server.account.approveAllTokens().map(JSONValue.string)))]))
    }

    /// A member of a `POST /account` body that cannot be applied.
    private struct InvalidAccount: Error, CustomStringConvertible {
        /// What is wrong, in one sentence.
        var description: String
    }

    /// Member `key` as positive movie ids; nil when absent.
    private static func ids(_ body: JSONBody, _ key: String) throws(InvalidAccount) -> [Int]? {
        guard let value = body.members[key] else { return nil }
        let failure = InvalidAccount(description: "\"\(key)\" must be an array of movie ids such as [603, 550].")
        guard let items = value as? [Any] else { throw failure }
        let ids = items.compactMap(JSONBody.integer)
        guard ids.count == items.count, ids.allSatisfy({ $0 > 0 }) else { throw failure }
        return ids
    }

    /// `rated` as ratings in id order; nil when absent.
    private static func ratings(_ body: JSONBody) throws(InvalidAccount) -> [(movieID: Int, value: Double)]? {
        guard let value = body.members["rated"] else { return nil }
        let failure = InvalidAccount(description: "\"rated\" must map movie ids to ratings 0.5...10 in steps of 0.5, such as {\"550\":7}.")
        guard let object = value as? [String: Any] else { throw failure }
        var ratings: [(movieID: Int, value: Double)] = []
        for (key, item) in object {
            guard let id = Int(key), id > 0, let rating = JSONBody.number(item),
                  (0.5...10).contains(rating), (rating * 2).rounded() == rating * 2 else { throw failure }
            ratings.append((id, rating))
        }
        return ratings.sorted { $0.movieID < $1.movieID }
    }

    /// The account as `GET /account` shows it.
    private static func json(_ state: AccountState) -> JSONValue {
        .object([
            ("account_id", .int(StubAccount.id)),
            ("watchlist", .array(state.watchlist.map(JSONValue.int))),
            ("favorite", .array(state.favorite.map(JSONValue.int))),
            ("rated", .object(state.ratings.map { (String($0.movieID), JSONValue.double($0.value)) })),
            ("writes", .int(state.writeCount)),
            ("write_log", .array(state.writeLog.map(json))),
            ("sessions", .int(state.sessions.count)),
        ])
    }

    /// One `write_log` entry: `{"seq":1,"kind":"rating","movie":603,"value":8.5}` (null: rating deleted).
    private static func json(_ write: AccountWrite) -> JSONValue {
        let value: JSONValue
        switch write.value {
        case .flag(let on): value = .bool(on)
        case .rating(let rating): value = .double(rating)
        case .removed: value = .null
        }
        return .object([("seq", .int(write.seq)), ("kind", .string(write.kind.rawValue)), ("movie", .int(write.movieID)), ("value", value)])
    }
}
