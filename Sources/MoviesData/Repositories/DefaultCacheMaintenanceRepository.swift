import FoundationEssentials
import MoviesDomain

/// Invalidation, purging and statistics of the response cache, by `CacheScope`.
public struct DefaultCacheMaintenanceRepository: CacheMaintenanceRepository {
    private let storage: any ResponseStorage
    private let policy: CachePolicy
    private let now: @Sendable () -> Date
    private let storageHealth: StorageHealthMonitor?

    /// Creates the repository; `policy` supplies the byte budget reported in statistics. Failures
    /// are recorded in `storageHealth` (and logged once per cause) and thrown as typed
    /// `MoviesError`s with code `.storage`.
    public init(
        storage: any ResponseStorage, policy: CachePolicy = CachePolicy(), now: @escaping @Sendable () -> Date = { Date() },
        storageHealth: StorageHealthMonitor? = nil
    ) {
        self.storageHealth = storageHealth
        self.storage = storage
        self.policy = policy
        self.now = now
    }

    /// Marks the scope's entries stale, keeping them for offline use.
    public func invalidate(_ scope: CacheScope) async throws -> Int {
        try await typed("invalidating cache entries") { try await storage.invalidate(keyPrefixes: Self.keyPrefixes(of: scope), now: now()) }
    }

    /// Deletes the scope's entries, counting the watchlist-pinned ones among them.
    public func purge(_ scope: CacheScope) async throws -> PurgedEntries {
        try await typed("purging cache entries") { try await storage.purge(keyPrefixes: Self.keyPrefixes(of: scope)) }
    }

    /// Current statistics with the policy's byte budget, counting the pins of `owners`.
    public func statistics(pinsOf owners: Set<Owner>?) async throws -> CacheStats {
        try await typed("reading cache statistics") { try await storage.statistics(now: now(), byteBudget: policy.byteBudget, pinsOf: owners) }
    }

    /// Runs `operation`, turning a storage failure into a typed, recorded `MoviesError`.
    private func typed<T: Sendable>(_ action: String, _ operation: () async throws -> T) async throws -> T {
        do {
            return try await operation()
        } catch {
            if let storageHealth { throw storageHealth.recordFailure(error, during: action) }
            throw MoviesError.storage(wrapping: error)
        }
    }

    /// The key prefixes covering `scope` (empty means every entry).
    static func keyPrefixes(of scope: CacheScope) -> [String] {
        switch scope {
        case .all: []
        case .search(let query): [CacheKey.searchPrefix(query)]
        case .movie(let id): [CacheKey.moviePrefix(id: id)]
        case .posters: [CacheKey.posterPrefix]
        }
    }
}
