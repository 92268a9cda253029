/// Port: the full-text index of every cached movie, kept by the response storage in the same
/// transaction as the responses the movies come from (`StoredResponse.indexedMovies`). Adapters:
/// `SQLiteMovieTextIndex` (FTS5), and an in-memory one for tests.
public protocol MovieTextIndex: Sendable {
    /// The page of indexed movies matching `query`, best first (title matches above overview
    /// matches, then by popularity); `total == 0` when none match.
    func search(_ query: LocalSearchQuery) async throws -> LocalMatches
}
