import Foundation

/// One HTTP request as the transport sends it: method, absolute URL, headers and a timeout.
///
/// Its `description` never shows the `Authorization` header or an `api_key` query value.
public struct HTTPRequest: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The HTTP method, such as `GET`.
    public var method: String
    /// The absolute URL, query included.
    public var url: URL
    /// Request headers; names as given, compared case-insensitively by servers.
    public var headers: [String: String]
    /// The per-request timeout in seconds (libcurl's timer, millisecond resolution).
    public var timeoutSeconds: Double
    /// The request body (a JSON object for TMDB's writes), `nil` for none.
    public var body: Data?
    /// When set, the response's body is written to this file (created or emptied, mode 0600) as it
    /// arrives, never held in memory, and `HTTPResponse.body` is empty: for downloads.
    public var bodyFile: String?

    /// Creates a request.
    public init(method: String = "GET", url: URL, headers: [String: String] = [:], timeoutSeconds: Double = 10, body: Data? = nil, bodyFile: String? = nil) {
        self.body = body
        self.bodyFile = bodyFile
        self.method = method
        self.url = url
        self.headers = headers
        self.timeoutSeconds = timeoutSeconds
    }

    /// The value of header `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// `GET https://host/path?api_key=<redacted>` — safe to log.
    public var description: String {
        "\(method) \(Redaction.redactingCredentials(in: url.absoluteString))"
    }

    /// The same as `description`, so debug output shows no credential either.
    public var debugDescription: String { description }

    /// A mirror showing the redacted request line and header names only, so `dump` shows no secret.
    public var customMirror: Mirror {
        Mirror(self, children: ["request": description, "headerNames": headers.keys.sorted(), "timeoutSeconds": timeoutSeconds])
    }
}
