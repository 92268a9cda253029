import MoviesDomain

/// What the watchlist and refresh methods of `MoviesVarlinkService` need.
public struct WatchlistDependencies: Sendable {
    /// Lists and edits watchlists.
    public var manageWatchlists: ManageWatchlistsUseCase
    /// Runs (or joins) refreshes on demand.
    public var refreshWatchlists: RefreshWatchlistsUseCase
    /// The refresh engine's state for `Status`, as the call's scope may see it (see
    /// `WatchlistRefreshRepository.activity(seenBy:)`).
    public var refreshStatus: @Sendable (OwnerScope) async -> RefreshStatus

    /// Creates the dependencies.
    public init(manageWatchlists: ManageWatchlistsUseCase, refreshWatchlists: RefreshWatchlistsUseCase, refreshStatus: @escaping @Sendable (OwnerScope) async -> RefreshStatus) {
        self.manageWatchlists = manageWatchlists
        self.refreshWatchlists = refreshWatchlists
        self.refreshStatus = refreshStatus
    }
}
