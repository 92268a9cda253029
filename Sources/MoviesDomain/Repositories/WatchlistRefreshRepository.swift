/// Refreshing watchlists: fetching what is due (or every entry) again and pinning it in the cache.
public protocol WatchlistRefreshRepository: Sendable {
    /// Refreshes the list `watchlist` (every list when `nil`) as `mode` says, reporting each step
    /// to `onProgress`. A request made while a covering refresh runs joins it instead of starting
    /// another.
    func refresh(watchlist: String?, mode: RefreshMode, onProgress: @escaping @Sendable (RefreshProgress) -> Void) async throws -> RefreshSummary
    /// The last completed refresh, if any.
    func lastRefresh() async -> RefreshSummary?
}
