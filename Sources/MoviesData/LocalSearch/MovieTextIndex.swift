/// Port: the full-text index of every cached movie, derived from the stored search pages and
/// movie details (`MovieIndexing`): a search sees every response stored before it started.
/// Adapters: `SQLiteMovieTextIndex` (FTS5), and an in-memory one for tests.
public protocol MovieTextIndex: Sendable {
    /// The page of indexed movies matching `query`, best first (title matches above overview
    /// matches, then by popularity); `total == 0` when none match.
    func search(_ query: LocalSearchQuery) async throws -> LocalMatches
}
