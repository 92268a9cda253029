extension TMDBRouter {
    /// `GET /3/authentication/token/new`: a request token valid for 60 minutes (approved at once
    /// with `--auto-approve`).
    func newRequestToken() -> HTTPResponse {
        let (token, expiresAt) = account.newRequestToken()
        return .json(.object([
            ("success", .bool(true)), ("expires_at", .string(TMDBTimestamp.format(expiresAt))), ("request_token", .string(token)),
        ]))
    }

    /// `POST /3/authentication/session/new` with `{"request_token":…}`: a session for an approved
    /// token (using it up); 401 code 33 for an unknown, used or expired token, 17 for one not approved.
    func newSession(body: [UInt8]) -> HTTPResponse {
        guard let token = JSONBody(body)?.string("request_token") else { return Self.invalidParameters }
        switch account.createSession(requestToken: token) {
        case .created(let sessionID):
            return .json(.object([("success", .bool(true)), ("session_id", .string(sessionID))]))
        case .invalidToken:
            return .tmdbError(status: 401, code: 33, message: "Invalid request token: The request token is either expired or invalid.")
        case .denied:
            return .tmdbError(status: 401, code: 17, message: "Session denied.")
        }
    }

    /// `DELETE /3/authentication/session` with `{"session_id":…}`: ends a valid session; 401 code 3
    /// for any other (and for every one under the `sessionExpired` fault).
    func deleteSession(body: [UInt8], sessionsExpired: Bool) -> HTTPResponse {
        guard !sessionsExpired, let sessionID = JSONBody(body)?.string("session_id"),
              account.deleteSession(sessionID) else { return Self.authenticationFailed }
        return .json(.object([("success", .bool(true))]))
    }
}
