/// Why an HTTP exchange produced no response. Descriptions are one sentence, say what happened on
/// the wire, and contain no credential.
public enum NetworkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The machine has no network connection.
    case notConnected
    /// The server's host name could not be resolved.
    case dnsFailure
    /// Nothing listens at the server's address: the connection was refused.
    case connectionRefused
    /// The server reset the connection (TCP RST) before its answer was complete.
    case connectionReset
    /// The server closed the connection before sending the whole body it announced.
    case shortBody
    /// The secure connection could not be set up (handshake or certificate).
    case tlsFailure
    /// No answer within the per-request timeout or the overall deadline.
    case timedOut
    /// The request was cancelled by its caller.
    case cancelled
    /// Any other transport failure; the message is already redacted.
    case transport(message: String)
    /// The answer was not an HTTP response.
    case invalidResponse
    /// The request's URL could not be built.
    case invalidURL

    /// Whether retrying at once may help: timeouts, resets, short bodies and other transport
    /// failures. A refused connection, an unknown host, a failed TLS handshake or a missing network
    /// is a definite "the remote is not there": retrying it only delays the offline answer, so it
    /// fails fast and the caller's health tracking backs off instead (DESIGN §4).
    public var isRetryable: Bool {
        switch self {
        case .timedOut, .connectionReset, .shortBody, .transport: true
        case .notConnected, .dnsFailure, .connectionRefused, .tlsFailure, .cancelled, .invalidResponse, .invalidURL: false
        }
    }

    /// A short stable name for logs and tests (`reset`, `short-body`, `timeout`, …).
    public var kind: String {
        switch self {
        case .notConnected: "not-connected"
        case .dnsFailure: "dns"
        case .connectionRefused: "refused"
        case .connectionReset: "reset"
        case .shortBody: "short-body"
        case .tlsFailure: "tls"
        case .timedOut: "timeout"
        case .cancelled: "cancelled"
        case .transport: "transport"
        case .invalidResponse: "invalid-response"
        case .invalidURL: "invalid-url"
        }
    }

    /// One sentence saying what failed, with any credential redacted.
    public var description: String {
        switch self {
        case .notConnected: "The network is not connected."
        case .dnsFailure: "The server's host name could not be resolved (DNS)."
        case .connectionRefused: "The server refused the connection."
        case .connectionReset: "The server reset the connection."
        case .shortBody: "The server closed the connection before sending the whole answer (short body)."
        case .tlsFailure: "The secure (TLS) connection to the server failed."
        case .timedOut: "The server did not answer in time."
        case .cancelled: "The request was cancelled."
        case .transport(let message): "The request failed: \(Redaction.redactingCredentials(in: message))"
        case .invalidResponse: "The server's answer was not a valid HTTP response."
        case .invalidURL: "The request URL could not be built."
        }
    }
}
