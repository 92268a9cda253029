/// One line of TMDB's daily movie ID export, read: `{"adult":false,"id":3924,
/// "original_title":"Blondie","popularity":2.744,"video":false}`
/// (<https://developer.themoviedb.org/docs/daily-id-exports>).
public struct CatalogueExportEntry: Sendable, Hashable {
    /// TMDB's movie id.
    public var id: Int
    /// `original_title`.
    public var originalTitle: String
    /// `popularity` (0 when absent).
    public var popularity: Double
    /// `adult`.
    public var adult: Bool
    /// `video` (a video release rather than a film).
    public var video: Bool

    /// Creates an entry.
    public init(id: Int, originalTitle: String, popularity: Double, adult: Bool = false, video: Bool = false) {
        self.id = id
        self.originalTitle = originalTitle
        self.popularity = popularity
        self.adult = adult
        self.video = video
    }

    /// Whether the catalogue keeps it: adult and video entries only with `includeAdult`.
    public func isKept(includeAdult: Bool) -> Bool {
        includeAdult || (!adult && !video)
    }
}
