import MoviesData
import MoviesDomain

/// The `[Refresh]` section: watchlist prefetch and the refresh-ahead scheduler (DESIGN §4).
public struct RefreshSettings: Sendable, Hashable {
    /// `Enabled=`: whether the scheduler refreshes watchlist entries ahead of expiry. Default yes.
    public var enabled: Bool = true
    /// `RequestsPerSecond=`: the scheduler's background budget, well under `[Remote] RequestsPerSecond`
    /// so interactive calls keep room. Default 10.
    public var requestsPerSecond: Double = 10
    /// `Posters=`: whether posters of watchlist movies are prefetched too. Default yes.
    public var posters: Bool = true
    /// `DeadlineSec=`: the deadline of one on-demand `Refresh` call (it streams progress, so the
    /// general `CallDeadlineSec` does not apply); 0 for none. Default 3600.
    public var deadlineSeconds: Int = 3600
    /// `ChangeFeed=`: whether TMDB's change feed decides which cached movies are fetched again
    /// (those it lists) and which stay fresh without a request (the others). Default yes.
    public var changeFeed: Bool = true
    /// `ChangeFeedIntervalSec=`: time between reads of the change feed (each reads the days since
    /// the last, plus one); movies it confirms stay fresh for 1.5 times this. Default 24 h.
    public var changeFeedIntervalSeconds: Int = 86_400
    /// How often the TMDB account's lists are pulled when signed in (`AccountPullIntervalSec=`,
    /// default 1 h); edits are sent as soon as they are made, whatever this says.
    public var accountPullIntervalSeconds: Int = 3600

    /// The documented defaults.
    public init() {}

    /// The scheduler's configuration.
    public var schedulerConfiguration: RefreshScheduler.Configuration {
        RefreshScheduler.Configuration(requestsPerSecond: requestsPerSecond)
    }
}
