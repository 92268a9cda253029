/// What one caller may know of the watchlist refreshes (`Status`): whether one runs, how far it
/// got and how the last one went, each limited to the lists the caller may see or follow
/// (`OwnerScope.maySee(_:)`, `OwnerScope.mayFollow(_:)`).
public struct RefreshActivity: Sendable, Hashable {
    /// Whether a refresh of lists the caller may see is running.
    public var running: Bool
    /// The running refreshes the caller may follow, as one: their counts added up, the latest step.
    public var progress: RefreshProgress?
    /// The last refresh of lists the caller may see (see `WatchlistRefreshRepository.activity`).
    public var last: RefreshSummary?

    /// Creates an activity record.
    public init(running: Bool = false, progress: RefreshProgress? = nil, last: RefreshSummary? = nil) {
        self.running = running
        self.progress = progress
        self.last = last
    }
}
