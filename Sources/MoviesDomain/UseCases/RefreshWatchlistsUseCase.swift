/// Refreshes one watchlist (or all) on demand, reporting progress; joins a refresh already running.
public struct RefreshWatchlistsUseCase: Sendable {
    private let refresher: any WatchlistRefreshRepository

    /// Creates the use case.
    public init(refresher: any WatchlistRefreshRepository) {
        self.refresher = refresher
    }

    /// Runs (or joins) the refresh and returns its summary: what is due by default, everything with
    /// `mode: .everything`.
    public func execute(
        watchlist: String?, mode: RefreshMode = .due, onProgress: @escaping @Sendable (RefreshProgress) -> Void = { _ in }
    ) async throws -> RefreshSummary {
        let name = try watchlist.map { raw throws(MoviesError) in try Watchlist.validatedName(raw) }
        return try await refresher.refresh(watchlist: name, mode: mode, onProgress: onProgress)
    }

    /// The last completed refresh, if any.
    public func lastRefresh() async -> RefreshSummary? {
        await refresher.lastRefresh()
    }
}
