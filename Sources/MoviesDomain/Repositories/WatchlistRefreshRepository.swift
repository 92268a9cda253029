/// Refreshing watchlists: fetching every entry again and pinning it in the cache.
public protocol WatchlistRefreshRepository: Sendable {
    /// Refreshes the list `watchlist` (every list when `nil`), reporting each step to `onProgress`.
    /// A request made while a covering refresh runs joins it instead of starting another.
    func refresh(watchlist: String?, onProgress: @escaping @Sendable (RefreshProgress) -> Void) async throws -> RefreshSummary
    /// The last completed refresh, if any.
    func lastRefresh() async -> RefreshSummary?
}
