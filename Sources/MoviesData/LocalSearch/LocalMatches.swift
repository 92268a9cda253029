import FoundationEssentials

/// One page of local search results, best first.
public struct LocalMatches: Sendable, Hashable {
    /// One movie found.
    public struct Match: Sendable, Hashable {
        /// The movie's summary as indexed (`IndexedMovie.summary`).
        public var summary: Data
        /// When the response it came from was fetched from TMDB.
        public var fetchedAt: Date

        /// Creates a match.
        public init(summary: Data, fetchedAt: Date) {
            self.summary = summary
            self.fetchedAt = fetchedAt
        }
    }

    /// How many indexed movies match in all.
    public var total: Int
    /// The page's movies.
    public var movies: [Match]

    /// Creates a page of matches.
    public init(total: Int, movies: [Match]) {
        self.total = total
        self.movies = movies
    }
}
