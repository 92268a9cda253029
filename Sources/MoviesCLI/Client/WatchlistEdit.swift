/// What to add to or remove from a watchlist.
public struct WatchlistEdit: Sendable, Hashable {
    /// The list's name.
    public var name: String
    /// Search queries.
    public var queries: [String]
    /// Movie ids.
    public var movieIDs: [Int]
    /// The page depth of added queries (`nil`: the daemon's default, 3).
    public var pages: Int?

    /// Whether it names no query and no movie.
    public var isEmpty: Bool { queries.isEmpty && movieIDs.isEmpty }

    /// Creates an edit.
    public init(name: String, queries: [String] = [], movieIDs: [Int] = [], pages: Int? = nil) {
        self.name = name
        self.queries = queries
        self.movieIDs = movieIDs
        self.pages = pages
    }
}
