/// Fresh lifetimes and max-stale bounds per resource class (DESIGN §4), all configurable.
public struct CachePolicy: Sendable, Hashable {
    /// How long a response is fresh, per class. Posters are immutable.
    public var freshSeconds: [ResourceClass: Int]
    /// How long past its fresh lifetime a response may still be served, per class.
    public var maxStaleSeconds: [ResourceClass: Int]
    /// How long an authoritative TMDB 404 (codes 34/6) is remembered.
    public var negativeSeconds: Int
    /// Whether TMDB's `Cache-Control: max-age` may shorten or lengthen the fresh lifetime (config wins when false).
    public var honorRemoteMaxAge: Bool
    /// Eviction budget for stored bodies, in bytes; pinned entries are exempt.
    public var byteBudget: Int64

    /// Creates a policy.
    public init(
        freshSeconds: [ResourceClass: Int] = CachePolicy.defaultFreshSeconds,
        maxStaleSeconds: [ResourceClass: Int] = CachePolicy.defaultMaxStaleSeconds,
        negativeSeconds: Int = 600,
        honorRemoteMaxAge: Bool = false,
        byteBudget: Int64 = 512 * 1024 * 1024
    ) {
        self.freshSeconds = freshSeconds
        self.maxStaleSeconds = maxStaleSeconds
        self.negativeSeconds = negativeSeconds
        self.honorRemoteMaxAge = honorRemoteMaxAge
        self.byteBudget = byteBudget
    }

    /// Search 6 h, movie 24 h, configuration 3 d, posters immutable (100 years).
    public static let defaultFreshSeconds: [ResourceClass: Int] = [
        .search: 6 * 3600, .movie: 24 * 3600, .configuration: 3 * 86400, .poster: 100 * 365 * 86400,
    ]

    /// Search 30 d, movie 180 d, configuration 365 d, posters forever.
    public static let defaultMaxStaleSeconds: [ResourceClass: Int] = [
        .search: 30 * 86400, .movie: 180 * 86400, .configuration: 365 * 86400, .poster: 100 * 365 * 86400,
    ]

    /// The fresh lifetime of `resource`, taking TMDB's `max-age` into account when allowed.
    public func freshLifetime(of resource: ResourceClass, remoteMaxAge: Int? = nil) -> Int {
        let configured = freshSeconds[resource] ?? 3600
        if honorRemoteMaxAge, let remoteMaxAge, remoteMaxAge >= 0 { return remoteMaxAge }
        return configured
    }

    /// The max-stale bound of `resource`.
    public func maxStale(of resource: ResourceClass) -> Int {
        maxStaleSeconds[resource] ?? 0
    }
}
