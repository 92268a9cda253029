import FoundationEssentials

/// The refresh engine's state, as `Status` reports it.
public struct RefreshStatus: Sendable, Hashable, Codable {
    /// What the refresh-ahead scheduler is doing.
    public enum SchedulerState: String, Sendable, Hashable, Codable {
        /// Refresh-ahead is switched off (`[Refresh] Enabled=no`).
        case disabled
        /// Waiting for the next due entry.
        case idle
        /// The remote failed; waiting out a backoff before trying again.
        case backingOff = "backing_off"
    }

    /// Whether an on-demand refresh is running.
    public var running: Bool
    /// Its latest step, while running.
    public var progress: RefreshProgress?
    /// The last completed on-demand refresh.
    public var last: RefreshSummary?
    /// The scheduler's state.
    public var scheduler: SchedulerState
    /// When the scheduler next looks for due entries.
    public var nextRunAt: Date?
    /// TMDB's change feed: its cursor and last run (`nil` when switched off).
    public var changeFeed: ChangeFeedStatus?

    /// Creates a status.
    public init(
        running: Bool, progress: RefreshProgress? = nil, last: RefreshSummary? = nil, scheduler: SchedulerState, nextRunAt: Date? = nil,
        changeFeed: ChangeFeedStatus? = nil
    ) {
        self.changeFeed = changeFeed
        self.running = running
        self.progress = progress
        self.last = last
        self.scheduler = scheduler
        self.nextRunAt = nextRunAt
    }
}
