/// One step of a watchlist refresh: what was just done and the running counts.
public struct RefreshProgress: Sendable, Hashable, Codable {
    /// The watchlist the step belongs to.
    public var watchlist: String
    /// What the step fetched, e.g. `search "matrix" page 2` or `movie 603`.
    public var step: String
    /// Steps completed successfully so far.
    public var done: Int
    /// Steps that failed so far.
    public var failed: Int
    /// Steps skipped so far (pages beyond the query's last page).
    public var skipped: Int
    /// The planned number of steps (done + failed + skipped + current reaches it at the end).
    public var total: Int
    /// Steps left alone so far because their cached entry is current (`nil` from a daemon before 0.2).
    public var current: Int?

    /// Creates a progress record.
    public init(watchlist: String, step: String, done: Int, failed: Int, skipped: Int, total: Int, current: Int? = nil) {
        self.current = current
        self.watchlist = watchlist
        self.step = step
        self.done = done
        self.failed = failed
        self.skipped = skipped
        self.total = total
    }
}
