import MoviesDomain

/// Port: the last public watchlist refresh (of system lists only, which everyone may know of),
/// kept across restarts. Adapters: `SQLiteRefreshHistoryStorage`
/// (the state database) and an in-memory one for tests.
public protocol RefreshHistoryStorage: Sendable {
    /// The last refresh recorded, if any.
    func lastRefresh() async throws -> RefreshSummary?
    /// Records `summary` as the last refresh.
    func saveLastRefresh(_ summary: RefreshSummary) async throws
}
