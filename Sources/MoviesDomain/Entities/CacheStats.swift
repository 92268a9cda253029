/// Size and composition of the local cache.
public struct CacheStats: Sendable, Hashable, Codable {
    /// Number of stored responses.
    public var entries: Int
    /// Bytes of stored response bodies.
    public var bytes: Int64
    /// Entries past their fresh lifetime.
    public var staleEntries: Int
    /// Entries pinned by a watchlist (exempt from eviction).
    public var pinnedEntries: Int
    /// The eviction budget in bytes.
    public var byteBudget: Int64
    /// The bytes of the pinned entries (`nil` from a daemon before 0.3).
    public var pinnedBytes: Int64?

    /// Creates statistics.
    public init(entries: Int, bytes: Int64, staleEntries: Int, pinnedEntries: Int, byteBudget: Int64, pinnedBytes: Int64? = nil) {
        self.entries = entries
        self.bytes = bytes
        self.staleEntries = staleEntries
        self.pinnedEntries = pinnedEntries
        self.byteBudget = byteBudget
        self.pinnedBytes = pinnedBytes
    }
}
