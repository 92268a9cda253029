import MoviesDomain

/// The arguments of one `Search` call.
public struct SearchParameters: Sendable, Hashable {
    /// The query as typed.
    public var query: String
    /// The 1-based page.
    public var page: Int
    /// How the daemon may use its cache and the network; `nil` means its default.
    public var policy: FetchPolicy?
    /// The oldest cached answer acceptable, in seconds; `nil` means the daemon's default.
    public var maxStaleSeconds: Int?
    /// TMDB's language tag; `nil` means the daemon's default.
    public var language: String?
    /// An ISO 3166-1 region code; `nil` means none.
    public var region: String?
    /// Only movies released this year; `nil` means any.
    public var year: Int?
    /// Whether the daemon saves the query to the caller's recent searches once TMDB answered it
    /// (`false`: a search made while the user types, which `movies browse` saves only once the user
    /// commits to it, with `SaveRecentQuery`).
    public var remember = true

    /// Creates the arguments of a search.
    public init(
        query: String, page: Int = 1, policy: FetchPolicy? = nil, maxStaleSeconds: Int? = nil,
        language: String? = nil, region: String? = nil, year: Int? = nil
    ) {
        self.query = query
        self.page = page
        self.policy = policy
        self.maxStaleSeconds = maxStaleSeconds
        self.language = language
        self.region = region
        self.year = year
    }
}
