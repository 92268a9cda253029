/// What a purge deleted: how many entries, and how many of those a watchlist had pinned for
/// offline use (they stay missing until the next refresh of their watchlist).
public struct PurgedEntries: Sendable, Hashable {
    /// Entries deleted.
    public var entries: Int
    /// Of those, the entries a watchlist had pinned.
    public var pinned: Int

    /// Creates a count.
    public init(entries: Int, pinned: Int = 0) {
        self.entries = entries
        self.pinned = pinned
    }
}
