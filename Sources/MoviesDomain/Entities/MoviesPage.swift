/// One page of search results, movies in TMDB's order.
public struct MoviesPage: Sendable, Hashable, Codable {
    /// 1-based page number.
    public var page: Int
    /// Total number of pages TMDB has for the query (1 for an empty result).
    public var totalPages: Int
    /// Total number of results TMDB has for the query.
    public var totalResults: Int
    /// The movies on this page, in the order TMDB returned them.
    public var movies: [Movie]

    /// Creates a page.
    public init(page: Int, totalPages: Int, totalResults: Int, movies: [Movie]) {
        self.page = page
        self.totalPages = totalPages
        self.totalResults = totalResults
        self.movies = movies
    }

    /// Whether a later page exists.
    public var hasMorePages: Bool { page < totalPages }
}
