/// The TMDB credential the daemon found at start, which never prints its secret.
///
/// `description`, `debugDescription` and reflection (`dump`, `Mirror`) all show only the kind of
/// credential, e.g. "bearer token (redacted)".
public enum LoadedCredential: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// A TMDB API read access token, sent as `Authorization: Bearer`.
    case bearer(String)
    /// A v3 API key, sent as the `api_key` query parameter.
    case apiKey(String)
    /// No credential: the daemon serves its cache and reports the missing credential.
    case none

    /// The secret itself, for the HTTP client and for ``Logger/redacting(_:)``; nil for `.none`.
    public var secret: String? {
        switch self {
        case .bearer(let token), .apiKey(let token): token
        case .none: nil
        }
    }

    /// The kind of credential, never the secret.
    public var description: String {
        switch self {
        case .bearer: "bearer token (redacted)"
        case .apiKey: "API key (redacted)"
        case .none: "no credential"
        }
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror without children, so `dump` cannot reveal the secret.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .enum) }
}
