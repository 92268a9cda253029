import FoundationEssentials
import MoviesDomain

/// One page of local search results, best first.
public struct LocalMatches: Sendable, Hashable {
    /// One movie found.
    public struct Match: Sendable, Hashable {
        /// The movie, from its indexed summary (`MovieIndexing.movie`).
        public var movie: Movie
        /// When the response it came from was fetched from TMDB.
        public var fetchedAt: Date

        /// Creates a match.
        public init(movie: Movie, fetchedAt: Date) {
            self.movie = movie
            self.fetchedAt = fetchedAt
        }
    }

    /// How many indexed movies match in all: every one of them is on one of the pages.
    public var total: Int
    /// The page's movies.
    public var movies: [Match]

    /// Creates a page of matches.
    public init(total: Int, movies: [Match]) {
        self.total = total
        self.movies = movies
    }
}
