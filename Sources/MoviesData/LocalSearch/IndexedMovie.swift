import FoundationEssentials

/// One movie as the local search index holds it: its searchable text in one language, its
/// popularity for ranking, and the movie in the interface's shape for answering.
public struct IndexedMovie: Sendable, Hashable {
    /// TMDB's movie id.
    public var movieID: Int
    /// The language the text is in, as the request that fetched it asked (`""`: TMDB's default).
    public var language: String
    /// The searchable text, folded (`SearchText.folded`); what is shown is `summary`.
    public var title: String
    public var originalTitle: String
    public var overview: String
    /// TMDB's popularity (0 when unknown).
    public var popularity: Double
    /// The movie's summary (`Movie`) as `WireCoding` writes it: what a local answer lists.
    public var summary: Data
    /// When the response it came from was fetched from TMDB.
    public var fetchedAt: Date

    /// Creates an index entry.
    public init(movieID: Int, language: String, title: String, originalTitle: String, overview: String, popularity: Double, summary: Data, fetchedAt: Date) {
        self.movieID = movieID
        self.language = language
        self.title = title
        self.originalTitle = originalTitle
        self.overview = overview
        self.popularity = popularity
        self.summary = summary
        self.fetchedAt = fetchedAt
    }
}
