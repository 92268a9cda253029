/// One movie on one of the account's lists.
public struct AccountItem: Sendable, Hashable, Codable {
    enum CodingKeys: String, CodingKey {
        case title, releaseDate, rating, pending
        case movieID = "id"
    }

    /// The TMDB movie id.
    public var movieID: Int
    /// The title, when known (from TMDB's list, or the cache).
    public var title: String?
    /// `YYYY-MM-DD`, when known.
    public var releaseDate: String?
    /// The user's rating (rated list only).
    public var rating: Double?
    /// Whether an edit not yet confirmed on TMDB put it here (or changed its rating).
    public var pending: Bool

    /// Creates an item.
    public init(movieID: Int, title: String? = nil, releaseDate: String? = nil, rating: Double? = nil, pending: Bool = false) {
        self.movieID = movieID
        self.title = title
        self.releaseDate = releaseDate
        self.rating = rating
        self.pending = pending
    }
}
