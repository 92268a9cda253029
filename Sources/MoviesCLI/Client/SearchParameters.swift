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

    /// Creates the arguments of a search.
    public init(query: String, page: Int = 1, policy: FetchPolicy? = nil, maxStaleSeconds: Int? = nil) {
        self.query = query
        self.page = page
        self.policy = policy
        self.maxStaleSeconds = maxStaleSeconds
    }
}
