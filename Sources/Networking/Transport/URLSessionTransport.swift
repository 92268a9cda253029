import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `HTTPTransport` over one long-lived `URLSession`.
///
/// Linux notes (swift-corelibs-foundation): URLSession timeouts are whole seconds (a sub-second one
/// fires at once), so the request timeout is rounded up and our own timer enforces the exact one;
/// cancelling `data(for:)` can deadlock (#5412), so the transport owns a `dataTask` inside its own
/// continuation, resumes it exactly once, and cancels the task itself on timeout or cancellation.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession

    /// Creates a transport with an ephemeral session and no URL cache (the daemon is the cache).
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `request` once; maps `URLError`s to `NetworkError` and times out after `request.timeoutSeconds`.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let timeout = max(0.001, request.timeoutSeconds)
        urlRequest.timeoutInterval = max(1, timeout.rounded(.up))

        let gate = ResumeOnce<HTTPResponse>()
        let session = self.session
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                gate.install(continuation)
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    if let error {
                        gate.resume(.failure(Self.networkError(from: error)))
                        return
                    }
                    guard let http = response as? HTTPURLResponse else {
                        gate.resume(.failure(NetworkError.invalidResponse))
                        return
                    }
                    var headers: [String: String] = [:]
                    for (name, value) in http.allHeaderFields {
                        headers[String(describing: name)] = String(describing: value)
                    }
                    gate.resume(.success(HTTPResponse(status: http.statusCode, headers: headers, body: data ?? Data())))
                }
                let timer = Task {
                    do {
                        try await TimeSource.system.sleep(timeout)
                        gate.resume(.failure(NetworkError.timedOut))
                    } catch {
                        // Cancelled: the task finished first.
                    }
                }
                gate.onResolve {
                    timer.cancel()
                    task.cancel()
                }
                task.resume()
            }
        } onCancel: {
            gate.resume(.failure(NetworkError.cancelled))
        }
    }

    /// The `NetworkError` for a URLSession failure; messages carry no URL.
    ///
    /// On Linux (swift-corelibs-foundation over libcurl) a TCP reset arrives as
    /// `networkConnectionLost` ("Recv failure: Connection reset by peer"), a body shorter than its
    /// `Content-Length` as `unknown` ("transfer closed with N bytes remaining to read"), a refused
    /// connection as `cannotConnectToHost`, an unknown host as `cannotFindHost` and an empty reply as
    /// `badServerResponse`; curl's own text is in the localized description.
    static func networkError(from error: any Error) -> NetworkError {
        guard let urlError = error as? URLError else {
            return .transport(message: "unexpected transport error.")
        }
        let detail = urlError.localizedDescription
        switch urlError.code {
        case .notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff:
            return .notConnected
        case .networkConnectionLost:
            return .connectionReset
        case .cannotConnectToHost:
            return .connectionRefused
        case .cannotFindHost, .dnsLookupFailed:
            return .dnsFailure
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
             .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
             .clientCertificateRequired:
            return .tlsFailure
        case .timedOut:
            return .timedOut
        case .cancelled:
            return .cancelled
        case .badServerResponse, .cannotParseResponse, .zeroByteResource:
            return .invalidResponse
        default:
            if detail.contains("bytes remaining to read") || detail.contains("transfer closed") { return .shortBody }
            if detail.localizedCaseInsensitiveContains("connection reset") { return .connectionReset }
            if detail.contains("SSL") || detail.contains("TLS") { return .tlsFailure }
            return .transport(message: "URL error \(urlError.code.rawValue) (\(Redaction.redactingCredentials(in: detail))).")
        }
    }
}
