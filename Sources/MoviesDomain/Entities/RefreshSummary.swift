import FoundationEssentials

/// The outcome of one watchlist refresh.
public struct RefreshSummary: Sendable, Hashable, Codable {
    /// Steps fetched from TMDB successfully.
    public var done: Int
    /// Steps that failed.
    public var failed: Int
    /// Steps skipped (pages beyond a query's last page).
    public var skipped: Int
    /// Wall-clock duration in seconds.
    public var durationSeconds: Double
    /// When the refresh finished.
    public var finishedAt: Date
    /// The first failure's description, when something failed (never containing the credential).
    public var firstError: String?
    /// Whether the first failure was TMDB rejecting the credential (code 7), not an outage.
    public var authRejected: Bool
    /// Steps left alone because their cached entry is current (`nil` from a daemon before 0.2).
    public var current: Int?
    /// Pinned movies TMDB's change feed listed as changed, fetched again before the lists (`nil`
    /// without the change feed).
    public var changed: Int?
    /// Entries of the lists left unpinned (most not fetched either): their owner's pins reached
    /// the owner's byte budget (`nil` from a daemon before 0.3).
    public var overBudget: Int?
    /// The bytes the owner's pins take after the refresh (of all its owners, for a refresh of
    /// several owners' lists).
    public var pinnedBytes: Int64?
    /// The owner's byte budget for pins (added up over the owners, likewise).
    public var pinBudgetBytes: Int64?

    /// Creates a summary.
    public init(
        done: Int, failed: Int, skipped: Int, durationSeconds: Double, finishedAt: Date, firstError: String? = nil, authRejected: Bool = false,
        current: Int? = nil, changed: Int? = nil, overBudget: Int? = nil, pinnedBytes: Int64? = nil, pinBudgetBytes: Int64? = nil
    ) {
        self.overBudget = overBudget
        self.pinnedBytes = pinnedBytes
        self.pinBudgetBytes = pinBudgetBytes
        self.current = current
        self.changed = changed
        self.done = done
        self.failed = failed
        self.skipped = skipped
        self.durationSeconds = durationSeconds
        self.finishedAt = finishedAt
        self.firstError = firstError
        self.authRejected = authRejected
    }
}
