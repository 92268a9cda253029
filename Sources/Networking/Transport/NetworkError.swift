/// Why an HTTP exchange produced no response. Descriptions are one sentence and contain no credential.
public enum NetworkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The machine has no network connection.
    case notConnected
    /// The host could not be resolved or refused the connection.
    case cannotConnect
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

    /// Whether retrying at once may help: timeouts and other transport failures (a reset, a
    /// truncated answer). A refused connection or a missing network is a definite "the remote is
    /// not there": retrying it only delays the offline answer, so it fails fast and the caller's
    /// health tracking backs off instead (DESIGN §4).
    public var isRetryable: Bool {
        switch self {
        case .timedOut, .transport: true
        case .notConnected, .cannotConnect, .cancelled, .invalidResponse, .invalidURL: false
        }
    }

    /// One sentence saying what failed, with any credential redacted.
    public var description: String {
        switch self {
        case .notConnected: "The network is not connected."
        case .cannotConnect: "The server could not be reached."
        case .timedOut: "The server did not answer in time."
        case .cancelled: "The request was cancelled."
        case .transport(let message): "The request failed: \(Redaction.redactingCredentials(in: message))"
        case .invalidResponse: "The server's answer was not a valid HTTP response."
        case .invalidURL: "The request URL could not be built."
        }
    }
}
