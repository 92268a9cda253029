import MoviesDomain

/// The parameters of a `Search` reply.
public struct SearchReply: Sendable, Hashable, Codable {
    /// The page of results.
    public var page: MoviesPage
    /// Where the page came from and how old it is.
    public var freshness: Freshness

    /// Creates a reply.
    public init(page: MoviesPage, freshness: Freshness) {
        self.page = page
        self.freshness = freshness
    }
}
