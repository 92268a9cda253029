/// Inspecting and maintaining the local cache.
public protocol CacheMaintenanceRepository: Sendable {
    /// Marks entries stale but keeps them for offline use. Returns how many entries were marked.
    func invalidate(_ scope: CacheScope) async throws -> Int
    /// Deletes entries. Returns how many were deleted.
    func purge(_ scope: CacheScope) async throws -> Int
    /// Current cache statistics.
    func statistics() async throws -> CacheStats
}
