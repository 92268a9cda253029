import FoundationEssentials
import MoviesData
import MoviesDomain
import Synchronization

/// An in-memory `ResponseStorage` honouring the whole contract: newer-wins, prefixes, pinning,
/// LRU eviction by byte budget and statistics. Counts calls for tests.
public actor InMemoryResponseStorage: ResponseStorage {
    private struct Entry {
        var response: StoredResponse
        /// The owners that pin it.
        var pinners: Set<Owner> = []
        var lastAccess: UInt64
        var pinned: Bool { !pinners.isEmpty }
    }

    private var entries: [String: Entry] = [:]
    private var accessClock: UInt64 = 0
    /// Calls to `response(forKey:)`.
    public private(set) var readCount = 0
    /// Calls to `save(_:)`.
    public private(set) var saveCount = 0
    /// Calls to `revalidate(key:fetchedAt:expiresAt:)`.
    public private(set) var revalidateCount = 0
    /// Calls to `evict(toFit:)`.
    public private(set) var evictCount = 0
    /// When set, every call throws this error.
    public var failure: (any Error & Sendable)?
    /// Accesses answered from memory, applied to the LRU order by the next call.
    private nonisolated let memoryAccesses = Mutex<[String]>([])
    /// The memory of entries in front of it, kept as `SQLiteResponseStorage` keeps its own
    /// (`nil`: none): reads fill it, every write updates exactly its keys.
    public nonisolated let memory: ResponseMemory?
    private nonisolated let clock: @Sendable () -> Date

    /// Notes the access; the next call applies it to the LRU order.
    public nonisolated func recordAccess(forKey key: String) {
        memoryAccesses.withLock { $0.append(key) }
    }

    /// The entry for `key` when the memory holds it; the access counts for LRU order.
    public nonisolated func remembered(forKey key: String) -> ResponseMemory.Remembered? {
        guard let memory, let (remembered, passOn) = memory.remembered(forKey: key, at: clock().timeIntervalSince1970) else { return nil }
        if passOn { recordAccess(forKey: key) }
        return remembered
    }

    /// Creates an empty storage, with a memory of `memoryBytes` in front of it when given.
    public init(memoryBytes: Int? = nil, clock: @escaping @Sendable () -> Date = { Date() }) {
        memory = memoryBytes.map { ResponseMemory(byteBudget: $0) }
        self.clock = clock
    }

    /// When set, `save` and `revalidate` throw this error (reads still work): a full disk.
    public private(set) var writeFailure: (any Error & Sendable)?

    /// Makes later writes throw `error` (or succeed again with `nil`).
    public func setWriteFailure(_ error: (any Error & Sendable)?) { writeFailure = error }

    /// Makes every later call throw `error` (or succeed again with `nil`).
    public func setFailure(_ error: (any Error & Sendable)?) { failure = error }

    /// The stored entry for `key`, without recording an access (for assertions).
    public func peek(_ key: String) -> StoredResponse? { entries[key]?.response }

    /// Whether the entry for `key` is pinned; `nil` when there is none (for assertions).
    public func isPinned(_ key: String) -> Bool? { entries[key]?.pinned }

    /// Every stored key, sorted.
    public var keys: [String] { entries.keys.sorted() }

    /// Whether `owner` pins the entry for `key` (for assertions).
    public func isPinned(_ key: String, by owner: Owner) -> Bool { entries[key]?.pinners.contains(owner) ?? false }

    /// Stores `response` unconditionally (to seed a test), bypassing newer-wins; `pinned`: by the system.
    public func seed(_ response: StoredResponse, pinned: Bool = false) {
        entries[response.key] = Entry(response: response, pinners: pinned ? [.system] : [], lastAccess: tick())
        memory?.committed(ResponseMemory.Changes(touched: [response.key], current: []))
    }

    /// The entry for `key`, recording an access for LRU.
    public func response(forKey key: String) throws -> StoredResponse? {
        readCount += 1
        try check()
        if let remembered = remembered(forKey: key) { return remembered.response }
        guard var entry = entries[key] else { return nil }
        entry.lastAccess = tick()
        entries[key] = entry
        memory?.fill(entry.response, readSince: memory?.writeMark(forKey: entry.response.key) ?? 0)
        return entry.response
    }

    /// Stores `response` unless the stored entry is newer.
    @discardableResult
    public func save(_ response: StoredResponse) throws -> Bool {
        saveCount += 1
        if let writeFailure { throw writeFailure }
        try check()
        if let existing = entries[response.key], existing.response.fetchedAt > response.fetchedAt { return false }
        entries[response.key] = Entry(response: response, pinners: entries[response.key]?.pinners ?? [], lastAccess: tick())
        committed([response.key], rewritten: true)
        return true
    }

    /// Stores the reply of the entry still fetched at `fetchedAt`.
    public func upgradeReply(key: String, fetchedAt: Date, reply: [UInt8], version: Int) throws {
        if let writeFailure { throw writeFailure }
        try check()
        guard var entry = entries[key], entry.response.fetchedAt == fetchedAt else { return }
        entry.response.reply = reply
        entry.response.replyVersion = version
        entries[key] = entry
        committed([key], rewritten: true)
    }

    /// Keeps the body and moves `fetchedAt` and `expiresAt` (never backwards).
    public func revalidate(key: String, fetchedAt: Date, expiresAt: Date) throws {
        if let writeFailure { throw writeFailure }
        revalidateCount += 1
        try check()
        guard var entry = entries[key], entry.response.fetchedAt <= fetchedAt else { return }
        entry.response.fetchedAt = fetchedAt
        entry.response.expiresAt = expiresAt
        entries[key] = entry
        committed([key])
    }

    /// Marks matching entries expired at `now`.
    public func invalidate(keyPrefixes: [String], now: Date) throws -> Int {
        try check()
        let matching = keys(matching: keyPrefixes)
        for key in matching {
            guard var entry = entries[key] else { continue }
            entry.response.expiresAt = min(now, entry.response.expiresAt)
            entries[key] = entry
        }
        committed(matching)
        return matching.count
    }

    /// Deletes matching entries, counting the pinned ones.
    public func purge(keyPrefixes: [String]) throws -> PurgedEntries {
        try check()
        let matching = keys(matching: keyPrefixes)
        let pinned = matching.filter { entries[$0]?.pinned == true }.count
        for key in matching { entries[key] = nil }
        committed(matching)
        return PurgedEntries(entries: matching.count, pinned: pinned)
    }

    /// Pins `keys` for `owner` within `budget` (the size of an entry: its body and reply), as
    /// `SQLiteResponseStorage` does.
    public func pin(_ keys: [String], for owner: Owner, within budget: Int64, replacing: Bool) throws -> PinResult {
        try check()
        if replacing {
            for key in entries.keys { entries[key]?.pinners.remove(owner) }
        }
        var pinned = pinnedBytes(of: owner)
        var refused = 0
        for key in keys {
            guard let entry = entries[key], !entry.pinners.contains(owner) else { continue }
            let size = Self.size(of: entry.response)
            guard refused == 0, size <= budget - pinned else {
                refused += 1
                continue
            }
            entries[key]?.pinners.insert(owner)
            pinned += size
        }
        return PinResult(pinnedBytes: pinned, refused: refused)
    }

    /// Lets go of `owner`'s pins of `keys`.
    public func unpin(_ keys: [String], for owner: Owner) throws {
        try check()
        for key in keys { entries[key]?.pinners.remove(owner) }
    }

    /// The bytes of `owner`'s pinned entries.
    public func pinnedBytes(of owner: Owner) -> Int64 {
        entries.values.filter { $0.pinners.contains(owner) }.reduce(0) { $0 + Self.size(of: $1.response) }
    }

    /// The bytes an entry counts in the budget: its body and its stored reply, as in SQLite.
    private static func size(of response: StoredResponse) -> Int64 {
        Int64(response.body.count + (response.reply?.count ?? 0))
    }

    /// Deletes least-recently-used unpinned entries until they fit `byteBudget`.
    public func evict(toFit byteBudget: Int64) throws -> Int {
        evictCount += 1
        try check()
        var total = entries.values.reduce(Int64(0)) { $0 + Self.size(of: $1.response) }
        var deleted: [String] = []
        for (key, entry) in entries.filter({ !$0.value.pinned }).sorted(by: { $0.value.lastAccess < $1.value.lastAccess }) {
            guard total > byteBudget else { break }
            entries[key] = nil
            total -= Self.size(of: entry.response)
            deleted.append(key)
        }
        committed(deleted)
        return deleted.count
    }

    /// Entry, byte, stale and pinned counts.
    public func statistics(now: Date, byteBudget: Int64, pinsOf owners: Set<Owner>?) throws -> CacheStats {
        try check()
        let pinned = entries.values.filter { entry in owners.map { !entry.pinners.isDisjoint(with: $0) } ?? entry.pinned }
        return CacheStats(
            entries: entries.count,
            bytes: entries.values.reduce(0) { $0 + Self.size(of: $1.response) },
            staleEntries: entries.values.filter { $0.response.isStale(at: now) }.count,
            pinnedEntries: pinned.count,
            byteBudget: byteBudget,
            pinnedBytes: pinned.reduce(0) { $0 + Self.size(of: $1.response) })
    }

    /// Every movie the stored responses list for the local search index.
    var indexedMovies: [IndexedMovie] { entries.values.flatMap { MovieIndexing.entries(of: $0.response) } }

    private func keys(matching prefixes: [String]) -> [String] {
        entries.keys.filter { key in prefixes.isEmpty || prefixes.contains { key.hasPrefix($0) } }
    }

    /// Tells the memory what a write changed, as `SQLiteStore` does: the current entries of the
    /// `keys` it holds (of every key, when `rewritten`), the others dropped.
    private func committed(_ keys: [String], rewritten: Bool = false) {
        guard let memory else { return }
        let current = keys.filter { rewritten || memory.holds($0) }.compactMap { entries[$0]?.response }
        memory.committed(ResponseMemory.Changes(touched: keys, current: current))
    }

    private func tick() -> UInt64 {
        accessClock += 1
        return accessClock
    }

    func check() throws {
        for key in memoryAccesses.withLock({ keys in defer { keys = [] }; return keys }) {
            entries[key]?.lastAccess = tick()
        }
        if let failure { throw failure }
    }
}
