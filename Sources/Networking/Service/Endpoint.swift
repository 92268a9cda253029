import Foundation

/// One HTTP call described independently of the server: a path relative to the service's base URL
/// (or an absolute URL), query items in order, extra headers, and whether it carries the credential.
public struct Endpoint: Sendable, Hashable {
    /// Where the request goes.
    public enum Location: Sendable, Hashable {
        /// A path relative to the base URL, such as `search/movie` (leading and trailing `/` ignored).
        case path(String)
        /// An absolute URL, such as an image on a CDN.
        case absolute(URL)
    }

    /// One `name=value` query parameter.
    public struct QueryItem: Sendable, Hashable {
        /// The parameter name, unencoded.
        public var name: String
        /// The parameter value, unencoded.
        public var value: String
        /// Creates a query item.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The HTTP method, `GET` by default.
    public var method: String
    /// The path or absolute URL.
    public var location: Location
    /// Query parameters, sent in this order.
    public var queryItems: [QueryItem]
    /// Extra request headers (such as `If-None-Match`).
    public var headers: [String: String]
    /// Whether the service adds its credential. Never true for third-party hosts.
    public var requiresCredential: Bool
    /// The request body, `nil` for none (set `Content-Type` in `headers` with it).
    public var body: Data?
    /// What the request is for, in one short stable word (`search`, `movie`, `image`, …): how
    /// ``RequestMetrics`` tells endpoints apart without their paths' ids and queries.
    public var kind = "other"

    /// An endpoint relative to the base URL, sent with the credential.
    public init(path: String, queryItems: [QueryItem] = [], headers: [String: String] = [:], method: String = "GET", body: Data? = nil) {
        self.body = body
        self.method = method
        self.location = .path(path)
        self.queryItems = queryItems
        self.headers = headers
        self.requiresCredential = true
    }

    /// An absolute URL, sent without the credential unless `requiresCredential`.
    public init(url: URL, headers: [String: String] = [:], requiresCredential: Bool = false, method: String = "GET") {
        self.method = method
        self.location = .absolute(url)
        self.queryItems = []
        self.headers = headers
        self.requiresCredential = requiresCredential
    }

    /// The full URL: `baseURL` + path (exactly one `/` between them, none at the end) + query.
    public func url(relativeTo baseURL: URL) throws -> URL {
        var text: String
        switch location {
        case .absolute(let url):
            text = url.absoluteString
        case .path(let path):
            var base = baseURL.absoluteString
            if !base.hasSuffix("/") { base += "/" }
            var trimmed = Substring(path)
            while trimmed.first == "/" { trimmed.removeFirst() }
            while trimmed.last == "/" { trimmed.removeLast() }
            text = base + trimmed
        }
        if !queryItems.isEmpty {
            text += (text.contains("?") ? "&" : "?") + QueryEncoding.query(queryItems.map { ($0.name, $0.value) })
        }
        guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
            throw NetworkError.invalidURL
        }
        return url
    }
}
