import MoviesDomain

/// One refresh of one owner's lists (all of them, or the one named) that a `WatchlistRefresher`
/// runs, or holds until the earlier refreshes of the same owner's lists have finished: the unit
/// that callers join and `Status` follows.
struct RefreshRun {
    let id: Int
    let owner: Owner
    /// The one list, or `nil` for every list of `owner`.
    let name: String?
    let mode: RefreshMode
    let task: Task<RefreshSummary, any Error>
    /// Whether it is going through the lists (`false` while it waits for an earlier one).
    var started = false
    /// Whoever waits for it: the caller that asked first and those who joined.
    var subscribers: [@Sendable (RefreshProgress) -> Void]
    /// Its latest step, and the refresher's count of steps reported when it came (the newest of
    /// several refreshes' steps is the one with the highest).
    var latest: (progress: RefreshProgress, sequence: Int)?

    /// The lists it goes through.
    var target: RefreshTarget { RefreshTarget(owners: [owner], name: name) }

    /// Whether it does everything a refresh of `other` in `mode` would (see `RefreshTarget.covers`).
    func covers(_ other: RefreshTarget, _ mode: RefreshMode) -> Bool {
        target.covers(other) && (self.mode == .everything || mode == .due)
    }
}
