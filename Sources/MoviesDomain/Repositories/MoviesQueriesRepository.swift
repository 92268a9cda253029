import FoundationEssentials

/// Recent successful search queries, newest first, de-duplicated on the canonical form.
public protocol MoviesQueriesRepository: Sendable {
    /// At most `maxCount` recent queries, newest first.
    func recentQueries(maxCount: Int) async throws -> [MovieQuery]
    /// Records `query` as the most recent one (moving it to the front if already present).
    func saveRecentQuery(_ query: MovieQuery) async throws
}
