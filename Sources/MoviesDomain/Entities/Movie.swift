/// One movie as it appears in a list of search results, in TMDB's order.
public struct Movie: Sendable, Hashable, Codable, Identifiable {
    /// TMDB's movie id.
    public var id: Int
    /// The localized title.
    public var title: String
    /// The title in the original language, when TMDB has one.
    public var originalTitle: String?
    /// The plot summary; `nil` when TMDB sends none or an empty string.
    public var overview: String?
    /// The release date as TMDB writes it (`YYYY-MM-DD`); `nil` when unknown or `""`.
    public var releaseDate: String?
    /// The poster's image path (e.g. `/abc.jpg`), to be combined with a size and the image base URL.
    public var posterPath: String?
    /// The average vote, 0...10.
    public var voteAverage: Double?
    /// The original language (ISO 639-1).
    public var originalLanguage: String?
    /// TMDB's popularity score (unbounded, higher is more popular); ranks local search results.
    public var popularity: Double?
    /// `true` for a movie known only from the catalogue (TMDB's daily ID export), not cached:
    /// its title is the original title, and its details come when TMDB is reachable. `nil`
    /// otherwise (TMDB's own results and cached movies).
    public var catalogue: Bool?

    /// Creates a movie.
    public init(
        id: Int, title: String, originalTitle: String? = nil, overview: String? = nil,
        releaseDate: String? = nil, posterPath: String? = nil, voteAverage: Double? = nil,
        originalLanguage: String? = nil, popularity: Double? = nil, catalogue: Bool? = nil
    ) {
        self.catalogue = catalogue
        self.id = id
        self.title = title
        self.originalTitle = originalTitle
        self.overview = overview
        self.releaseDate = releaseDate
        self.posterPath = posterPath
        self.voteAverage = voteAverage
        self.originalLanguage = originalLanguage
        self.popularity = popularity
    }

    /// The release year, when the release date is known.
    public var releaseYear: Int? {
        guard let date = releaseDate, date.count >= 4 else { return nil }
        return Int(date.prefix(4))
    }
}
