import FoundationEssentials

/// Each local user's recent successful search queries, newest first, de-duplicated on the
/// canonical form. Private: a user sees, saves and clears only their own.
public protocol MoviesQueriesRepository: Sendable {
    /// At most `maxCount` of `user`'s recent queries, newest first.
    func recentQueries(of user: LocalUser, maxCount: Int) async throws -> [MovieQuery]
    /// Records `query` as `user`'s most recent one (moving it to the front if already present).
    func saveRecentQuery(_ query: MovieQuery, for user: LocalUser) async throws
    /// Forgets `user`'s recent queries; returns how many there were.
    func clearRecentQueries(of user: LocalUser) async throws -> Int
}
