/// Refreshing watchlists: fetching what is due (or every entry) again and pinning it in the cache.
public protocol WatchlistRefreshRepository: Sendable {
    /// Refreshes the lists of `target` as `mode` says, reporting each step to `onProgress`. A
    /// request made while a covering refresh runs joins it instead of starting another; a target
    /// naming one list that does not exist throws `notFound`.
    func refresh(_ target: RefreshTarget, mode: RefreshMode, onProgress: @escaping @Sendable (RefreshProgress) -> Void) async throws -> RefreshSummary
    /// What a call in `scope` may know of the refreshes: those running over lists it may see, the
    /// progress of those it may follow, and the last refresh of lists it may see (with its first
    /// error only when it may follow it).
    func activity(seenBy scope: OwnerScope) async -> RefreshActivity
}
