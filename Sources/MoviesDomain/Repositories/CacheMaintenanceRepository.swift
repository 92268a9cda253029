/// Inspecting and maintaining the local cache.
public protocol CacheMaintenanceRepository: Sendable {
    /// Marks entries stale but keeps them for offline use. Returns how many entries were marked.
    func invalidate(_ scope: CacheScope) async throws -> Int
    /// Deletes entries, pinned ones too. Returns how many were deleted, and how many of those were
    /// pinned by a watchlist.
    func purge(_ scope: CacheScope) async throws -> PurgedEntries
    /// Current cache statistics, counting the pins of `owners` alone (`nil`: everyone's).
    func statistics(pinsOf owners: Set<Owner>?) async throws -> CacheStats
}
