import Foundation

/// A TMDB credential: a v4 read access token (preferred) or a v3 API key.
///
/// Its `description`, `debugDescription` and mirror never show the secret.
public enum Credential: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Sent as `Authorization: Bearer <token>`.
    case bearer(String)
    /// Sent as the `api_key` query parameter.
    case apiKey(String)

    /// The secret value itself. Never log it.
    var secret: String {
        switch self {
        case .bearer(let token): token
        case .apiKey(let key): key
        }
    }

    /// `request` carrying this credential: an `Authorization` header or an `api_key` query item.
    public func authorize(_ request: HTTPRequest) -> HTTPRequest {
        var request = request
        switch self {
        case .bearer(let token):
            request.headers["Authorization"] = "Bearer \(token)"
        case .apiKey(let key):
            if var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) {
                let item = "api_key=\(QueryEncoding.percentEncode(key))"
                if let query = components.percentEncodedQuery, !query.isEmpty {
                    components.percentEncodedQuery = query + "&" + item
                } else {
                    components.percentEncodedQuery = item
                }
                if let url = components.url { request.url = url }
            }
        }
        return request
    }

    /// The shortest secret that `scrub` looks for verbatim.
    static let minimumScrubbedLength = 8

    /// `text` with this credential's secret and any `api_key=`/`Bearer` value replaced by `<redacted>`.
    public func scrub(_ text: String) -> String {
        var redacted = Redaction.redactingCredentials(in: text)
        // Secrets shorter than this are not real TMDB credentials (32+ characters) and replacing
        // them would mangle ordinary words.
        guard secret.count >= Self.minimumScrubbedLength else { return redacted }
        redacted = Redaction.replacingWholeOccurrences(of: secret, in: redacted, with: Redaction.placeholder)
        let encoded = QueryEncoding.percentEncode(secret)
        if encoded != secret { redacted = redacted.replacingOccurrences(of: encoded, with: Redaction.placeholder) }
        return redacted
    }

    /// `Credential.bearer(<redacted>)` or `Credential.apiKey(<redacted>)`.
    public var description: String {
        switch self {
        case .bearer: "Credential.bearer(\(Redaction.placeholder))"
        case .apiKey: "Credential.apiKey(\(Redaction.placeholder))"
        }
    }

    /// The same as `description`: never the secret.
    public var debugDescription: String { description }

    /// A mirror with the redacted description only, so `dump` shows no secret.
    public var customMirror: Mirror { Mirror(self, children: ["kind": description]) }
}
