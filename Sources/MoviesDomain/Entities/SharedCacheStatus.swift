/// What a shared HTTP cache in front of TMDB (the fleet recipe: nginx `proxy_cache`) said about
/// the daemon's answers, from its `X-Cache-Status` (or `X-Cache`) and `Via` headers.
public struct SharedCacheStatus: Sendable, Hashable, Codable {
    /// The last answer's cache status as the shared cache gave it (`HIT`, `MISS`, `STALE`,
    /// `UPDATING`, `REVALIDATED`, `EXPIRED`, `BYPASS`).
    public var lastStatus: String
    /// The shared cache's `Via`, when it sends one.
    public var via: String?
    /// Answers the shared cache served from its own cache without asking TMDB (HIT, STALE, UPDATING).
    public var hits: Int
    /// Answers it asked TMDB for (MISS, EXPIRED, BYPASS, REVALIDATED: a conditional request,
    /// anything else).
    public var misses: Int

    /// Creates a status.
    public init(lastStatus: String, via: String? = nil, hits: Int = 0, misses: Int = 0) {
        self.lastStatus = lastStatus
        self.via = via
        self.hits = hits
        self.misses = misses
    }

    /// Whether `status` means the shared cache answered without asking TMDB.
    public static func isHit(_ status: String) -> Bool {
        ["HIT", "STALE", "UPDATING"].contains(status.uppercased())
    }
}
