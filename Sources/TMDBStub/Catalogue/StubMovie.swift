/// One movie of the stub's catalogue, holding every field the stub serves for it.
public struct StubMovie: Sendable, Equatable {
    /// A production company as TMDB lists it.
    public struct Company: Sendable, Equatable {
        /// TMDB's company id.
        public var id: Int
        /// The company's name.
        public var name: String
        /// The logo path, or nil.
        public var logoPath: String?
        /// ISO 3166-1 country code (sometimes "").
        public var originCountry: String
    }

    /// TMDB's movie id.
    public var id: Int
    /// The (localized) title.
    public var title: String
    /// The title in the original language.
    public var originalTitle: String
    /// ISO 639-1 code of the original language.
    public var originalLanguage: String
    /// The overview, usually a few hundred characters, sometimes "".
    public var overview: String
    /// `YYYY-MM-DD`, or "" when unknown.
    public var releaseDate: String
    /// The poster path (`/abc.jpg`) or nil.
    public var posterPath: String?
    /// The backdrop path or nil.
    public var backdropPath: String?
    /// TMDB genre ids.
    public var genreIDs: [Int]
    /// Popularity score.
    public var popularity: Double
    /// Average vote, 0...10 with one decimal.
    public var voteAverage: Double
    /// Number of votes.
    public var voteCount: Int
    /// Adult flag.
    public var adult: Bool
    /// Video flag.
    public var video: Bool
    /// Runtime in minutes (0 when unknown).
    public var runtime: Int
    /// The tagline, possibly "".
    public var tagline: String
    /// The homepage: a URL, "" or nil (TMDB sends both).
    public var homepage: String?
    /// The IMDb id (`tt0133093`) or nil.
    public var imdbID: String?
    /// Release status ("Released", "Post Production"...).
    public var status: String
    /// Budget in USD.
    public var budget: Int
    /// Revenue in USD.
    public var revenue: Int
    /// Production companies.
    public var productionCompanies: [Company]
    /// Origin countries (ISO 3166-1).
    public var originCountry: [String]

    /// The title and original title folded for case- and diacritic-insensitive search.
    public var searchKey: String
}
