import Foundation

extension RunningStub {
    /// An authorized request with any method and a body on the main port (bearer token).
    func send(_ method: String, _ target: String, body: String = "") throws -> RawHTTPResponse {
        try RawHTTPClient.send(
            port: port, method: method, target: target,
            headers: ["Authorization": "Bearer stub-token", "Content-Type": "application/json"], body: Array(body.utf8)
        )
    }

    /// A new request token from `GET /3/authentication/token/new`.
    func requestToken() throws -> String {
        let response = try get("/3/authentication/token/new")
        guard let token = response.jsonObject?["request_token"] as? String else { throw AccountFlowError.noToken(response.status) }
        return token
    }

    /// Logs in as TMDB's flow does: a request token, approved on the control port (as the user
    /// would on TMDB's site), turned into a session; returns the session id.
    func login() throws -> String {
        let token = try requestToken()
        let approval = try control("POST", "/account/approve", body: #"{"request_token":"\#(token)"}"#)
        guard approval.status == 200 else { throw AccountFlowError.notApproved(approval.status) }
        let session = try send("POST", "/3/authentication/session/new", body: #"{"request_token":"\#(token)"}"#)
        guard let id = session.jsonObject?["session_id"] as? String else { throw AccountFlowError.noSession(session.status) }
        return id
    }

    /// The control port's `GET /account`.
    func accountState() throws -> [String: Any] {
        let response = try control("GET", "/account")
        guard response.status == 200, let object = response.jsonObject else { throw AccountFlowError.noAccount(response.status) }
        return object
    }
}

/// A step of the login flow a test relies on failed (with the HTTP status it got).
enum AccountFlowError: Error {
    case noToken(Int)
    case notApproved(Int)
    case noSession(Int)
    case noAccount(Int)
}

extension RawHTTPResponse {
    /// TMDB's `status_code`, if the body has one.
    var tmdbCode: Int? { jsonObject?["status_code"] as? Int }

    /// The HTTP status and TMDB's `status_code`, for one comparison.
    var statusAndCode: [Int?] { [status, tmdbCode] }
}

/// Whether `text` is 40 lowercase hex digits, like TMDB's request tokens and session ids.
func isFortyHex(_ text: String?) -> Bool {
    guard let text else { return false }
    return text.count == 40 && text.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
}
