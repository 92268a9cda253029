/// The parameters of an `Invalidate` or `Purge` reply.
public struct CacheMaintenanceReply: Sendable, Hashable, Codable {
    /// How many entries were affected.
    public var entries: Int

    /// Creates a reply.
    public init(entries: Int) { self.entries = entries }
}
