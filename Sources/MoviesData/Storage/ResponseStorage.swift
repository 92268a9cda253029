import FoundationEssentials

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

    /// Pins or unpins entries (watchlists): pinned entries are exempt from eviction.
    func setPinned(_ pinned: Bool, keys: [String]) async throws

    /// Deletes least-recently-used unpinned entries until stored bodies fit in `byteBudget`.
    /// Returns the number of entries deleted.
    func evict(toFit byteBudget: Int64) async throws -> Int

    /// Entry count, bytes, stale and pinned counts at `now`.
    func statistics(now: Date, byteBudget: Int64) async throws -> CacheStats
}

import MoviesDomain

extension ResponseStorage {
    /// No memory: every entry is read.
    public func remembered(forKey key: String) -> ResponseMemory.Remembered? { nil }
}
