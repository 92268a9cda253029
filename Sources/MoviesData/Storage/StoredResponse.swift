import FoundationEssentials

/// One cached TMDB response, stored as received (the DTO bytes) with its cache metadata.
public struct StoredResponse: Sendable, Hashable {
    /// The canonical key (see `CacheKey`).
    public var key: String
    public var resource: ResourceClass
    /// The raw response body: JSON for API responses, image bytes for posters.
    public var body: Data
    /// The response's media type (`application/json`, `image/jpeg`...).
    public var contentType: String
    /// 200 for a normal entry; 404 for a negative entry (an authoritative TMDB "not found").
    public var httpStatus: Int
    /// When TMDB sent (or last confirmed with a 304) this response.
    public var fetchedAt: Date
    /// When it stops being fresh. Invalidation moves this into the past.
    public var expiresAt: Date
    /// TMDB's `ETag`, for `If-None-Match` revalidation.
    public var etag: String?
    /// TMDB's `Last-Modified`.
    public var lastModified: String?
    /// The decoded value's JSON in the interface's shape (`WireCoding`), written when the response
    /// is stored so that a cached reply needs no decoding; `nil` for posters, negative entries and
    /// entries stored before it existed (then the body is decoded).
    public var reply: [UInt8]?
    /// The `WireCoding.version` `reply` was written at (`nil`: unknown, a row stored before
    /// versions were): a reply of another version is not served (`reply(atVersion:)`).
    public var replyVersion: Int?

    /// Creates a stored response.
    public init(
        key: String, resource: ResourceClass, body: Data, contentType: String = "application/json", httpStatus: Int = 200,
        fetchedAt: Date, expiresAt: Date, etag: String? = nil, lastModified: String? = nil, reply: [UInt8]? = nil, replyVersion: Int? = nil
    ) {
        self.reply = reply
        self.replyVersion = reply == nil ? nil : replyVersion
        self.key = key
        self.resource = resource
        self.body = body
        self.contentType = contentType
        self.httpStatus = httpStatus
        self.fetchedAt = fetchedAt
        self.expiresAt = expiresAt
        self.etag = etag
        self.lastModified = lastModified
    }

    /// The stored reply when it was written at `version`; `nil` otherwise (then the body is what
    /// the entry holds).
    public func reply(atVersion version: Int) -> [UInt8]? {
        replyVersion == version ? reply : nil
    }

    /// Whether the entry is past its fresh lifetime at `now`.
    public func isStale(at now: Date) -> Bool { now >= expiresAt }

    /// Whole seconds since `fetchedAt` (never negative).
    public func ageSeconds(at now: Date) -> Int { max(0, Int(now.timeIntervalSince(fetchedAt))) }
}
