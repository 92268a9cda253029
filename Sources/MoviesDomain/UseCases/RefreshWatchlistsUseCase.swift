/// Refreshes watchlists on demand, reporting progress; joins a refresh already running.
public struct RefreshWatchlistsUseCase: Sendable {
    private let refresher: any WatchlistRefreshRepository

    /// Creates the use case.
    public init(refresher: any WatchlistRefreshRepository) {
        self.refresher = refresher
    }

    /// Runs (or joins) the refresh of `target` (see `ManageWatchlistsUseCase.refreshTarget`) and
    /// returns its summary: what is due by default, everything with `mode: .everything`.
    public func execute(
        _ target: RefreshTarget, mode: RefreshMode = .due, onProgress: @escaping @Sendable (RefreshProgress) -> Void = { _ in }
    ) async throws -> RefreshSummary {
        try await refresher.refresh(target, mode: mode, onProgress: onProgress)
    }

    /// What a call in `scope` may know of the refreshes running and the last one (`Status`).
    public func activity(seenBy scope: OwnerScope) async -> RefreshActivity {
        await refresher.activity(seenBy: scope)
    }
}
