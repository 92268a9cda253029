/// Each local user's fair share of what the daemon keeps for them (`[Users]` in moviesd.conf):
/// personal watchlists, their entries, and pending edits of their TMDB account. The system's
/// watchlists and account are not counted.
public struct UserQuotas: Sendable, Hashable {
    /// The most personal watchlists one user keeps (`WatchlistsPerUser=`).
    public var watchlists: Int
    /// The most entries (queries and movies) over one user's personal watchlists (`EntriesPerUser=`).
    public var entries: Int
    /// The most edits waiting for TMDB in one user's outbox (`PendingEditsPerUser=`).
    public var pendingEdits: Int

    /// Creates quotas (defaults as in moviesd.conf: 20 lists, 1,000 entries, 2,000 pending edits).
    public init(watchlists: Int = 20, entries: Int = 1_000, pendingEdits: Int = 2_000) {
        self.watchlists = watchlists
        self.entries = entries
        self.pendingEdits = pendingEdits
    }

    /// No limit beyond the system-wide ones.
    public static let unlimited = UserQuotas(watchlists: .max, entries: .max, pendingEdits: .max)
}
