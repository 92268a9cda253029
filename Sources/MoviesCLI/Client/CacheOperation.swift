/// What `movies cache` does to the selected entries.
public enum CacheOperation: String, Sendable, Hashable, CaseIterable {
    /// Mark them stale but keep them for offline use (`Invalidate`).
    case invalidate
    /// Delete them (`Purge`).
    case purge
}
