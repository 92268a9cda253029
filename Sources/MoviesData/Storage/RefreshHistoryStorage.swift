import MoviesDomain

/// Port: each owner's last watchlist refresh, kept across restarts. Adapters:
/// `SQLiteRefreshHistoryStorage` (the state database) and an in-memory one for tests.
public protocol RefreshHistoryStorage: Sendable {
    /// The last refresh of each owner's lists recorded, by owner.
    func lastRefreshes() async throws -> [Owner: RefreshSummary]
    /// Records `summary` as the last refresh of `owner`'s lists.
    func saveLastRefresh(_ summary: RefreshSummary, of owner: Owner) async throws
}
