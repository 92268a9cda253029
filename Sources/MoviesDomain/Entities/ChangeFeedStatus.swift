import FoundationEssentials

/// Where following TMDB's change feed stands, as `Status` reports it.
public struct ChangeFeedStatus: Sendable, Hashable, Codable {
    /// How the last run ended.
    public enum Outcome: String, Sendable, Hashable, Codable {
        /// Every page of every window was read and applied.
        case ok
        /// A request failed: nothing was applied and the cursor did not move.
        case failed
        /// The cursor was older than the feed can bridge (or TMDB refused the window): every pinned
        /// movie was fetched again instead.
        case fullRevalidation = "full_revalidation"
    }

    /// The cursor: changes up to this UTC date (`YYYY-MM-DD`) are applied; `nil` before the first run.
    public var syncedThrough: String?
    /// When the last run ended.
    public var lastRunAt: Date?
    public var lastOutcome: Outcome?
    /// Why the last run failed, with `failed`.
    public var lastError: String?
    /// Cached movies the last run found changed.
    public var changedCached: Int
    /// Pinned movies (or their posters) the last run fetched again because they changed.
    public var refetched: Int
    /// Cached movies the last run confirmed unchanged, kept fresh without a request.
    public var validated: Int
    /// Requests the last run made (feed pages and per-movie change lists).
    public var requests: Int

    /// Creates a status.
    public init(
        syncedThrough: String? = nil, lastRunAt: Date? = nil, lastOutcome: Outcome? = nil, lastError: String? = nil,
        changedCached: Int = 0, refetched: Int = 0, validated: Int = 0, requests: Int = 0
    ) {
        self.syncedThrough = syncedThrough
        self.lastRunAt = lastRunAt
        self.lastOutcome = lastOutcome
        self.lastError = lastError
        self.changedCached = changedCached
        self.refetched = refetched
        self.validated = validated
        self.requests = requests
    }
}
