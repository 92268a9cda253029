/// The full record of one movie (TMDB `GET /3/movie/{id}`).
public struct MovieDetails: Sendable, Hashable, Codable, Identifiable {
    public var id: Int
    public var title: String
    public var originalTitle: String?
    public var originalLanguage: String?
    public var overview: String?
    public var tagline: String?
    /// `YYYY-MM-DD`, or `nil` when TMDB sends `""` or null.
    public var releaseDate: String?
    /// Running time in minutes; `nil` when TMDB sends 0 or null.
    public var runtime: Int?
    public var genres: [String]
    /// `nil` when TMDB sends `""` or null.
    public var homepage: String?
    public var imdbID: String?
    public var posterPath: String?
    public var backdropPath: String?
    public var voteAverage: Double?
    public var voteCount: Int?
    public var status: String?
    /// TMDB's popularity score (unbounded, higher is more popular).
    public var popularity: Double?
    /// `true` when this is all the catalogue (TMDB's daily ID export) knows of a movie that is not
    /// cached and TMDB could not give: its original title and popularity; `nil` otherwise.
    public var catalogue: Bool?

    /// Wire names (the Varlink interface's `MovieDetails`): as the properties, but `imdbId`.
    enum CodingKeys: String, CodingKey {
        case id, title, originalTitle, originalLanguage, overview, tagline, releaseDate, runtime, genres
        case homepage, posterPath, backdropPath, voteAverage, voteCount, status, popularity, catalogue
        case imdbID = "imdbId"
    }

    /// Creates a movie record.
    public init(
        id: Int, title: String, originalTitle: String? = nil, originalLanguage: String? = nil,
        overview: String? = nil, tagline: String? = nil, releaseDate: String? = nil,
        runtime: Int? = nil, genres: [String] = [], homepage: String? = nil, imdbID: String? = nil,
        posterPath: String? = nil, backdropPath: String? = nil, voteAverage: Double? = nil,
        voteCount: Int? = nil, status: String? = nil, popularity: Double? = nil, catalogue: Bool? = nil
    ) {
        self.catalogue = catalogue
        self.id = id
        self.title = title
        self.originalTitle = originalTitle
        self.originalLanguage = originalLanguage
        self.overview = overview
        self.tagline = tagline
        self.releaseDate = releaseDate
        self.runtime = runtime
        self.genres = genres
        self.homepage = homepage
        self.imdbID = imdbID
        self.posterPath = posterPath
        self.backdropPath = backdropPath
        self.voteAverage = voteAverage
        self.voteCount = voteCount
        self.status = status
        self.popularity = popularity
    }
}
