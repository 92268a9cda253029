import FoundationEssentials

/// A successful (2xx) or not-modified (304) answer from TMDB.
public struct RemoteResponse: Sendable, Hashable {
    /// The HTTP status: 200...299 or 304.
    public var httpStatus: Int
    /// The body as received (empty for 304).
    public var body: Data
    public var contentType: String?
    public var etag: String?
    public var lastModified: String?
    /// `Cache-Control: max-age`, when sent.
    public var maxAge: Int?
    /// `Age`: how long a shared cache in between already held the answer, when sent.
    public var age: Int?
    /// A shared cache's word on the answer (`X-Cache-Status`, else `X-Cache`: `HIT`, `MISS`, …).
    public var cacheStatus: String?
    /// The shared cache's `Via`.
    public var via: String?

    /// Creates a response.
    public init(httpStatus: Int, body: Data, contentType: String? = nil, etag: String? = nil, lastModified: String? = nil, maxAge: Int? = nil,
                age: Int? = nil, cacheStatus: String? = nil, via: String? = nil) {
        self.age = age
        self.cacheStatus = cacheStatus
        self.via = via
        self.httpStatus = httpStatus
        self.body = body
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
        self.maxAge = maxAge
    }

    /// Whether TMDB answered 304 Not Modified.
    public var isNotModified: Bool { httpStatus == 304 }
}
