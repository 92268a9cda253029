/// One search query of a watchlist and how many of its result pages to keep prefetched.
///
/// Wire shape (the Varlink interface's `WatchlistQuery`): `{"query": "matrix", "pages": 3}`.
public struct WatchlistQuery: Sendable, Hashable, Codable {
    /// The page depth used when none is given.
    public static let defaultPages = 3

    /// The query.
    public var query: MovieQuery
    /// Pages 1...`pages` are prefetched (fewer when TMDB has fewer), 1...`SearchRequest.maxPage`.
    public var pages: Int

    /// Creates a watchlist query, validating the page depth against `1...SearchRequest.maxPage`.
    public init(query: MovieQuery, pages: Int = WatchlistQuery.defaultPages) throws(MoviesError) {
        guard (1...SearchRequest.maxPage).contains(pages) else {
            throw MoviesError.invalidArgument("pages must be between 1 and \(SearchRequest.maxPage), got \(pages)")
        }
        self.query = query
        self.pages = pages
    }

    private enum CodingKeys: String, CodingKey {
        case query, pages
    }

    /// Decodes `{"query": string, "pages": int}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .query)
        guard let query = MovieQuery(text) else {
            throw DecodingError.dataCorruptedError(forKey: .query, in: container, debugDescription: "empty query")
        }
        self.query = query
        self.pages = try container.decode(Int.self, forKey: .pages)
    }

    /// Encodes `{"query": string, "pages": int}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(query.query, forKey: .query)
        try container.encode(pages, forKey: .pages)
    }
}
