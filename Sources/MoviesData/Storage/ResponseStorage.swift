import FoundationEssentials
import MoviesDomain

/// Port: where raw TMDB responses are cached. Adapters: `SQLiteResponseStorage`, and an
/// in-memory one for tests.
///
/// Contract: a failed write never damages an existing entry; an older response (by `fetchedAt`)
/// never replaces a newer one; reads never wait for the writer.
public protocol ResponseStorage: Sendable {
    /// The entry for `key`, or `nil`. Records the access for LRU eviction (may be batched).
    func response(forKey key: String) async throws -> StoredResponse?

    /// The entry for `key` when the storage's memory holds it (`ResponseMemory`): without I/O
    /// or waiting, so an event loop may ask; `nil` when it is not in memory. Records the access.
    func remembered(forKey key: String) -> ResponseMemory.Remembered?

    /// Inserts or replaces the entry for `response.key`, unless the stored one is newer.
    /// - Returns: `false` when a newer entry was kept instead.
    @discardableResult
    func save(_ response: StoredResponse) async throws -> Bool

    /// Stores `reply` (written at `version`) with the entry for `key` if it is still the one
    /// fetched at `fetchedAt`: an entry stored before replies were, or in an older shape, read and
    /// decoded once, is upgraded so that later reads (and the memory) use its reply.
    func upgradeReply(key: String, fetchedAt: Date, reply: [UInt8], version: Int) async throws

    /// After a 304: keeps the body, sets new `fetchedAt` and `expiresAt`.
    func revalidate(key: String, fetchedAt: Date, expiresAt: Date) async throws

    /// Marks every entry whose key starts with one of `keyPrefixes` (all entries when empty) as
    /// expired at `now`, keeping it for offline use. Returns the number of entries marked.
    func invalidate(keyPrefixes: [String], now: Date) async throws -> Int

    /// Deletes every entry whose key starts with one of `keyPrefixes` (all when empty), pinned or
    /// not; counts the pinned ones among them.
    func purge(keyPrefixes: [String]) async throws -> PurgedEntries

    /// Pins `keys` for `owner` (the entries of its watchlists), in list order, within `budget`
    /// bytes of that owner's pins (`PinBudget`): pinned entries are exempt from eviction. A key
    /// the owner pins already stays pinned; a cached entry is pinned when the owner's pinned bytes
    /// with it stay within `budget`; the first that does not fit, and every cached entry after it,
    /// is not (`PinResult.refused`). Keys not cached are passed over.
    /// - Parameter replacing: these are all the entries `owner` pins: its other pins go, and the
    ///   bytes count from nothing, so exactly the first ones that fit are pinned (a refresh of all
    ///   the owner's lists).
    func pin(_ keys: [String], for owner: Owner, within budget: Int64, replacing: Bool) async throws -> PinResult

    /// Lets go of `owner`'s pins of `keys` (an entry another owner pins stays pinned).
    func unpin(_ keys: [String], for owner: Owner) async throws

    /// Deletes least-recently-used unpinned entries until stored bodies fit in `byteBudget`.
    /// Returns the number of entries deleted.
    func evict(toFit byteBudget: Int64) async throws -> Int

    /// Entry count, bytes, stale and pinned counts at `now`; the pinned ones of `owners` alone
    /// (`nil`: everyone's), so that nobody learns what another user's private lists hold.
    func statistics(now: Date, byteBudget: Int64, pinsOf owners: Set<Owner>?) async throws -> CacheStats
}

extension ResponseStorage {
    /// The statistics with everyone's pins.
    public func statistics(now: Date, byteBudget: Int64) async throws -> CacheStats {
        try await statistics(now: now, byteBudget: byteBudget, pinsOf: nil)
    }

    /// No memory: every entry is read.
    public func remembered(forKey key: String) -> ResponseMemory.Remembered? { nil }
}
