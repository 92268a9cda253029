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

    /// Creates a summary.
    public init(
        done: Int, failed: Int, skipped: Int, durationSeconds: Double, finishedAt: Date, firstError: String? = nil, authRejected: Bool = false,
        current: Int? = nil, changed: Int? = nil
    ) {
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
