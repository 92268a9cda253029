import FoundationEssentials
import MoviesDomain
import Networking

/// `AccountRemote` over TMDB API v3 through `Networking`: the app credential as for every request
/// (Bearer header or `api_key`), the user's `session_id` as a query parameter (never logged: it is
/// redacted like `api_key`), writes as JSON bodies. Shares the daemon's token bucket.
public struct TMDBAccountRemote: AccountRemote {
    private let service: NetworkService
    /// Writes and list pulls: one attempt each. The outbox and the pull's back-off are their retry,
    /// so an edit is never held up by retries within a call (its own, or a pull's in the same pass).
    private let oneAttempt: NetworkService
    private let deadlineSeconds: Double

    /// Creates the remote over `configuration`, waiting on `rateLimiter` and counting its requests
    /// in `metrics` (those of `TMDBRemote`).
    public init(
        configuration: TMDBRemoteConfiguration, transport: any HTTPTransport = CurlTransport(), rateLimiter: TokenBucketRateLimiter,
        timeSource: TimeSource = .system, metrics: RequestMetrics? = nil
    ) {
        deadlineSeconds = configuration.deadlineSeconds
        service = NetworkService(
            baseURL: configuration.apiBaseURL, credential: configuration.credential, transport: transport, rateLimiter: rateLimiter,
            retryPolicy: configuration.retryPolicy, requestTimeoutSeconds: configuration.requestTimeoutSeconds,
            deadlineSeconds: configuration.deadlineSeconds, timeSource: timeSource, metrics: metrics)
        oneAttempt = NetworkService(
            baseURL: configuration.apiBaseURL, credential: configuration.credential, transport: transport, rateLimiter: rateLimiter,
            retryPolicy: .none, requestTimeoutSeconds: configuration.requestTimeoutSeconds,
            deadlineSeconds: configuration.deadlineSeconds, timeSource: timeSource, metrics: metrics)
    }

    /// `GET authentication/token/new`.
    public func createRequestToken() async throws -> AccountRequestToken {
        let dto: RequestTokenDTO = try await decoded(Endpoint(path: "authentication/token/new", headers: Self.json), what: "create a sign-in request")
        return AccountRequestToken(token: dto.requestToken, expiresAt: dto.expiryDate)
    }

    /// `POST authentication/session/new`.
    public func createSession(requestToken: String) async throws -> String {
        let body = try Self.body(RequestTokenBody(request_token: requestToken))
        let dto: SessionDTO = try await decoded(Endpoint(path: "authentication/session/new", headers: Self.jsonBody, method: "POST", body: body), what: "create a session")
        return dto.sessionID
    }

    /// `DELETE authentication/session`.
    public func deleteSession(_ sessionID: String) async throws {
        let body = try Self.body(SessionBody(session_id: sessionID))
        _ = try await send(Endpoint(path: "authentication/session", headers: Self.jsonBody, method: "DELETE", body: body), what: "end the session", secret: sessionID)
    }

    /// `GET account?session_id`.
    public func accountDetails(sessionID: String) async throws -> (id: Int, username: String?) {
        let endpoint = Endpoint(path: "account", queryItems: [.init("session_id", sessionID)], headers: Self.json)
        let dto: AccountDetailsDTO = try await decoded(endpoint, what: "read the account", secret: sessionID)
        return (dto.id, dto.username)
    }

    /// `GET account/{id}/{list}/movies?session_id&page&sort_by=created_at.asc`, in one attempt (a
    /// failed pull is tried again after the pull's back-off).
    public func listPage(_ list: AccountList, session: AccountSession, page: Int) async throws -> AccountListPage {
        let items: [Endpoint.QueryItem] = [.init("page", String(page)), .init("sort_by", "created_at.asc"), .init("session_id", session.sessionID)]
        let endpoint = Endpoint(path: "account/\(session.accountID)/\(list.rawValue)/movies", queryItems: items, headers: Self.json)
        let dto: AccountListPageDTO = try await decoded(endpoint, what: "read the account's \(list.rawValue) list", secret: session.sessionID, service: oneAttempt)
        return dto.page(of: list)
    }

    /// Sends `edit` in one attempt; returns TMDB's `status_code` (1 for `success: true` without one).
    /// A 2xx whose body does not confirm the change (`success: true`, or code 1, 12 or 13) throws
    /// `invalidResponse` with the HTTP status and TMDB's code, so the edit stays pending.
    public func send(_ edit: AccountEdit, session: AccountSession) async throws -> Int {
        let query = [Endpoint.QueryItem("session_id", session.sessionID)]
        let endpoint: Endpoint
        switch edit.change {
        case .watchlist(let on):
            let body = try Self.body(WatchlistBody(media_id: edit.movieID, watchlist: on))
            endpoint = Endpoint(path: "account/\(session.accountID)/watchlist", queryItems: query, headers: Self.jsonBody, method: "POST", body: body)
        case .favorite(let on):
            let body = try Self.body(FavoriteBody(media_id: edit.movieID, favorite: on))
            endpoint = Endpoint(path: "account/\(session.accountID)/favorite", queryItems: query, headers: Self.jsonBody, method: "POST", body: body)
        case .rating(let value?):
            let body = try Self.body(RatingBody(value: value))
            endpoint = Endpoint(path: "movie/\(edit.movieID)/rating", queryItems: query, headers: Self.jsonBody, method: "POST", body: body)
        case .rating(nil):
            endpoint = Endpoint(path: "movie/\(edit.movieID)/rating", queryItems: query, headers: Self.json, method: "DELETE")
        }
        let response = try await send(endpoint, what: "\(edit)", secret: session.sessionID, service: oneAttempt)
        // Delivered only when TMDB's body says so: a 2xx whose body cannot be read, or does not
        // confirm the change, may not have changed anything (a proxy's page, a cut body).
        let status = try? JSONDecoder().decode(AccountStatusDTO.self, from: response.body)
        guard let status, status.confirmsWrite else {
            let code = status?.statusCode.map { ", code \($0)" } ?? ""
            throw MoviesError(
                code: .invalidResponse,
                message: "TMDB answered HTTP \(response.status)\(code) without confirming the change; it stays pending",
                httpStatus: response.status, tmdbCode: status?.statusCode)
        }
        return status.statusCode ?? 1
    }

    private static let json = ["Accept": "application/json"]
    private static let jsonBody = ["Accept": "application/json", "Content-Type": "application/json;charset=utf-8"]

    private struct RequestTokenBody: Encodable { var request_token: String }
    private struct SessionBody: Encodable { var session_id: String }
    private struct WatchlistBody: Encodable { var media_type = "movie"; var media_id: Int; var watchlist: Bool }
    private struct FavoriteBody: Encodable { var media_type = "movie"; var media_id: Int; var favorite: Bool }
    private struct RatingBody: Encodable { var value: Double }

    private static func body(_ object: some Encodable) throws -> Data {
        do {
            return try JSONEncoder().encode(object)
        } catch {
            throw MoviesError.invalidArgument("the request body could not be made")
        }
    }

    private func decoded<T: Decodable>(_ endpoint: Endpoint, what: String, secret: String? = nil, service: NetworkService? = nil) async throws -> T {
        let response = try await send(endpoint, what: what, secret: secret, service: service)
        guard let value = try? JSONDecoder().decode(T.self, from: response.body) else {
            throw MoviesError(code: .invalidResponse, message: "TMDB's answer to \(what) could not be decoded.", httpStatus: response.status)
        }
        return value
    }

    /// The 2xx answer to `endpoint` (through `service`, else the reads' one), or the `MoviesError`
    /// with TMDB's status and code.
    private func send(_ endpoint: Endpoint, what: String, secret: String?, service: NetworkService? = nil) async throws -> HTTPResponse {
        let response: HTTPResponse
        var endpoint = endpoint
        endpoint.kind = "account"
        do {
            response = try await (service ?? self.service).response(for: endpoint)
        } catch let error as NetworkError {
            throw scrubbed(TMDBResponseInterpreter.error(for: error, deadlineSeconds: deadlineSeconds), secret)
        } catch is CancellationError {
            throw MoviesError(code: .cancelled, message: "The request to TMDB was cancelled.")
        } catch {
            throw MoviesError(code: .remoteUnavailable, message: "The request to TMDB failed unexpectedly.")
        }
        guard !(200...299).contains(response.status) else { return response }
        let dto = TMDBErrorDTO.decode(response.body)
        let detail = dto?.message.map { ": \($0)" } ?? ""
        let code = dto?.statusCode.map { ", code \($0)" } ?? ""
        let kind: MoviesError.Code = switch response.status {
        case 429, 500...599: .remoteUnavailable
        default: .remoteRejected
        }
        let message = "TMDB answered HTTP \(response.status)\(code)\(detail)"
        throw scrubbed(MoviesError(code: kind, message: message, retryAfterSeconds: response.retryAfterSeconds, httpStatus: response.status, tmdbCode: dto?.statusCode), secret)
    }

    private func scrubbed(_ error: MoviesError, _ secret: String?) -> MoviesError {
        var error = error
        error.message = Redaction.redactingCredentials(in: error.message)
        if let secret, !secret.isEmpty { error.message = error.message.replacingOccurrences(of: secret, with: Redaction.placeholder) }
        return error
    }
}
