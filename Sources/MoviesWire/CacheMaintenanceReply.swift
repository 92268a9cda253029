/// The parameters of an `Invalidate` or `Purge` reply.
public struct CacheMaintenanceReply: Sendable, Hashable, Codable {
    /// How many entries were affected.
    public var entries: Int
    /// Of the purged entries, how many a watchlist had pinned (nil for `Invalidate`).
    public var pinned: Int?

    /// Creates a reply.
    public init(entries: Int, pinned: Int? = nil) {
        self.entries = entries
        self.pinned = pinned
    }
}
