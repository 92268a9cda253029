import MoviesDomain

/// What the watchlist and refresh methods of `MoviesVarlinkService` need.
public struct WatchlistDependencies: Sendable {
    /// Lists and edits watchlists.
    public var manageWatchlists: ManageWatchlistsUseCase
    /// Runs (or joins) refreshes on demand.
    public var refreshWatchlists: RefreshWatchlistsUseCase
    /// The refresh engine's state for `Status`.
    public var refreshStatus: @Sendable () async -> RefreshStatus

    /// Creates the dependencies.
    public init(manageWatchlists: ManageWatchlistsUseCase, refreshWatchlists: RefreshWatchlistsUseCase, refreshStatus: @escaping @Sendable () async -> RefreshStatus) {
        self.manageWatchlists = manageWatchlists
        self.refreshWatchlists = refreshWatchlists
        self.refreshStatus = refreshStatus
    }
}
