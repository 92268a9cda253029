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

/// The parameters of a `Movie` reply.
public struct MovieReply: Sendable, Hashable, Codable {
    /// The movie's details.
    public var movie: MovieDetails
    /// Where the record came from and how old it is.
    public var freshness: Freshness

    /// Creates a reply.
    public init(movie: MovieDetails, freshness: Freshness) {
        self.movie = movie
        self.freshness = freshness
    }
}

/// The parameters of a `Poster` reply.
public struct PosterReply: Sendable, Hashable, Codable {
    /// `image/jpeg`, `image/png`...
    public var mimeType: String
    /// The image bytes, base64-encoded.
    public var base64: String
    /// The TMDB width that was served (0 for `original`).
    public var width: Int
    /// Where the image came from and how old it is.
    public var freshness: Freshness

    /// Creates a reply.
    public init(mimeType: String, base64: String, width: Int, freshness: Freshness) {
        self.mimeType = mimeType
        self.base64 = base64
        self.width = width
        self.freshness = freshness
    }
}
