/// Each local user's fair share of what the daemon keeps for them (`[Users]` in moviesd.conf):
/// personal watchlists, their entries, the cache's bytes their pins take, and pending edits of
/// their TMDB account. The system's watchlists and account are not counted.
public struct UserQuotas: Sendable, Hashable {
    /// The most personal watchlists one user keeps (`WatchlistsPerUser=`).
    public var watchlists: Int
    /// The most entries (queries and movies) over one user's personal watchlists (`EntriesPerUser=`).
    public var entries: Int
    /// The most edits waiting for TMDB in one user's outbox (`PendingEditsPerUser=`).
    public var pendingEdits: Int
    /// The most bytes of the cache one user's watchlists pin (`PinnedBytesPerUser=`); `nil`: a
    /// quarter of the cache's budget (`PinBudget`).
    public var pinnedBytes: Int64?
    /// Where an administrator raises them: the drop-ins of the configuration file the daemon read.
    public var raisedIn = "/etc/moviesd/moviesd.conf.d/*.conf"

    /// Creates quotas (defaults as in moviesd.conf: 20 lists, 1,000 entries, 2,000 pending edits,
    /// a quarter of the cache for pins).
    public init(watchlists: Int = 20, entries: Int = 1_000, pendingEdits: Int = 2_000, pinnedBytes: Int64? = nil) {
        self.pinnedBytes = pinnedBytes
        self.watchlists = watchlists
        self.entries = entries
        self.pendingEdits = pendingEdits
    }

    /// The `quotaExceeded` error of the setting `name` (`WatchlistsPerUser`, `EntriesPerUser`,
    /// `PendingEditsPerUser`) of value `maximum`: `what` says what reached it, `advice` what the
    /// user can do; the message adds which setting it is and where an administrator raises it.
    public func exceeded(_ name: String, maximum: Int, _ what: String, _ advice: String) -> MoviesError {
        .quotaExceeded(name, maximum: maximum, "\(what) ([Users] \(name)=\(maximum)); \(advice), or have an administrator raise it in \(raisedIn)")
    }
}
