import MoviesDomain

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
