import FoundationEssentials
import MoviesData
import MoviesDomain
import Synchronization

/// `ResponseStorage` in SQLite: the `responses` table of a `SQLiteStore`.
///
/// Reads go to the reader pool and only record their access time in memory; those times reach the
/// table with an eviction that finds the cache over its budget (before it picks what to delete),
/// on `close()`, or in a background flush once `accessFlushThreshold` distinct keys are pending and
/// `accessFlushInterval` has passed since the last one (or at once when 16 times the threshold are
/// pending), so LRU eviction works without turning reads into writes, and a page saved does not
/// pay for the reads since the last one.
public final class SQLiteResponseStorage: ResponseStorage {
    let store: SQLiteStore
    private let clock: @Sendable () -> Date
    private let accessFlushThreshold: Int
    private let accessFlushInterval: Double
    /// Told when a response is stored or revalidated (the index rows of search pages and movie
    /// details follow).
    private let indexUpkeep: MovieIndexUpkeep?
    /// When the last background flush started (Unix seconds).
    private let lastAccessFlush = Mutex(-Double.infinity)
    /// The memory of entries in front of the table (`nil`: none): filled by reads, kept in step
    /// with every write by the store (`SQLiteStore.keepInStep`).
    public let memory: ResponseMemory?
    /// Entries `evict(toFit:)` deleted since the storage was made.
    private let evictedEntries = Atomic<UInt64>(0)

    /// Entries deleted to keep the cache within its byte budget since the storage was made.
    public var evictions: UInt64 { evictedEntries.load(ordering: .relaxed) }

    /// Creates the storage over `store`.
    /// - Parameters:
    ///   - clock: the time recorded as last access (injectable for tests).
    ///   - accessFlushThreshold: pending access times that trigger a background flush. Each flush
    ///     is a write transaction that makes every reader drop its page cache and reads the rows it
    ///     touches, so it is large and rare: 4,096 keys are ~0.5 MB of memory, and losing them in a
    ///     crash only loses eviction hints.
    ///   - accessFlushInterval: seconds between background flushes (a flush before a write, which
    ///     eviction needs, is not delayed). Measured: flushing every 4,096 reads of 10,000 distinct
    ///     pages cost a third of the daemon's throughput.
    ///   - indexUpkeep: woken after a response is stored or revalidated, to index what that queued
    ///     (`nil`: it is indexed when the index is next searched).
    ///   - memory: the memory of entries that reads fill (`nil`: none); the store keeps it in step
    ///     with every write to `responses` from now on (`SQLiteStore.keepInStep`), whoever writes.
    public init(
        store: SQLiteStore, accessFlushThreshold: Int = 4096, accessFlushInterval: Double = 30,
        indexUpkeep: MovieIndexUpkeep? = nil, memory: ResponseMemory? = nil, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.memory = memory
        if let memory { store.keepInStep(memory) }
        self.indexUpkeep = indexUpkeep
        self.clock = clock
        self.accessFlushThreshold = max(1, accessFlushThreshold)
        self.accessFlushInterval = max(0, accessFlushInterval)
    }

    /// The entry for `key`, or `nil`: from memory, else read (and remembered); records the access.
    public func response(forKey key: String) async throws -> StoredResponse? {
        if let remembered = remembered(forKey: key) { return remembered.response }
        let mark = memory?.writeMark(forKey: key) ?? 0
        let found = try await store.read { connection in
            try ResponseRow.load(key: key, from: connection)
        }
        guard let found else { return nil }
        memory?.fill(found, readSince: mark)
        recordAccess(forKey: key)
        return found
    }

    /// The entry for `key` when it is in memory (without I/O or waiting); the access counts for
    /// LRU eviction (passed on at most once a second per key).
    public func remembered(forKey key: String) -> ResponseMemory.Remembered? {
        guard let memory, let (remembered, passOn) = memory.remembered(forKey: key, at: clock().timeIntervalSince1970) else { return nil }
        if passOn { recordAccess(forKey: key) }
        return remembered
    }

    /// Records an access in memory, like a read does (an answer served from memory still counts
    /// for LRU eviction). Never waits: a full buffer is flushed by a background write.
    public func recordAccess(forKey key: String) {
        let now = clock().timeIntervalSince1970
        let pending = store.accessTimes.record(key: key, at: now)
        guard pending >= accessFlushThreshold else { return }
        let due = lastAccessFlush.withLock { last in
            guard Self.accessFlushIsDue(pending: pending, threshold: accessFlushThreshold, interval: accessFlushInterval, last: last, now: now) else { return false }
            last = now
            return true
        }
        guard due else { return }
        // Deliberately unstructured: the read must not wait for the writer. A failed flush only
        // loses LRU hints, never data.
        Task { [store] in try? await store.flushAccessTimes() }
    }

    /// Whether `pending` access times (at least `threshold`) are flushed now: `interval` seconds
    /// after the last flush, or at once when they reach 16 × `threshold` (memory stays bounded).
    static func accessFlushIsDue(pending: Int, threshold: Int, interval: Double, last: Double, now: Double) -> Bool {
        pending >= threshold && (pending >= 16 * threshold || now - last >= interval)
    }

    /// Upserts `response` unless the stored entry has a newer `fetchedAt`; keeps the pinned flag.
    /// The comparison happens inside the write (the upsert's `WHERE`), so it cannot race. A search
    /// page or movie's details is queued for the local search index in the same transaction
    /// (a trigger), and indexed after (`MovieIndexUpkeep`).
    @discardableResult
    public func save(_ response: StoredResponse) async throws -> Bool {
        let now = clock().timeIntervalSince1970
        let saved = try await store.write { connection in
            // Prepared once per connection: the upsert compiles its triggers' programs with it.
            try connection.run("""
                INSERT INTO responses (key, resource, body, content_type, http_status, fetched_at, expires_at,
                                       etag, last_modified, last_access, size, reply, reply_version)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(key) DO UPDATE SET
                    resource = excluded.resource, body = excluded.body, content_type = excluded.content_type,
                    http_status = excluded.http_status, fetched_at = excluded.fetched_at,
                    expires_at = excluded.expires_at, etag = excluded.etag,
                    last_modified = excluded.last_modified, last_access = excluded.last_access,
                    size = excluded.size, reply = excluded.reply, reply_version = excluded.reply_version
                WHERE excluded.fetched_at >= responses.fetched_at
                """, ResponseRow.values(of: response, lastAccess: now)) > 0
        }
        // The triggers decide what is queued; waking for anything else costs the upkeep one read.
        if saved { indexUpkeep?.wake() }
        return saved
    }

    /// Stores the reply of the entry still fetched at `fetchedAt` (and its size in the budget).
    public func upgradeReply(key: String, fetchedAt: Date, reply: [UInt8], version: Int) async throws {
        try await store.write { connection in
            try connection.run(
                "UPDATE responses SET reply = ?1, reply_version = ?2, size = length(body) + length(?1) WHERE key = ?3 AND fetched_at = ?4",
                [.blob(Data(reply)), .int(version), .text(key), .date(fetchedAt)])
        }
    }

    /// Sets new freshness after a 304, unless the stored entry was fetched later than `fetchedAt`.
    /// A search page or movie's details is queued for the local search index (its `fetched_at`).
    public func revalidate(key: String, fetchedAt: Date, expiresAt: Date) async throws {
        let now = clock().timeIntervalSince1970
        let updated = try await store.write { connection in
            try connection.run("""
                UPDATE responses SET fetched_at = ?1, expires_at = ?2, last_access = max(last_access, ?3)
                WHERE key = ?4 AND fetched_at <= ?1
                """, [.date(fetchedAt), .date(expiresAt), .real(now), .text(key)])
        }
        if updated > 0 { indexUpkeep?.wake() }
    }

    /// Moves `expires_at` to `now` (never later) for matching keys; rows stay for offline use.
    public func invalidate(keyPrefixes: [String], now: Date) async throws -> Int {
        let match = KeyPrefixMatch(prefixes: keyPrefixes, firstParameter: 2)
        return try await store.write { connection in
            try connection.run("UPDATE responses SET expires_at = min(expires_at, ?1) WHERE \(match.sql)", [.date(now)] + match.values)
        }
    }

    /// Deletes matching entries, counting the pinned ones in the same transaction.
    public func purge(keyPrefixes: [String]) async throws -> PurgedEntries {
        let match = KeyPrefixMatch(prefixes: keyPrefixes, firstParameter: 1)
        return try await store.write { connection in
            let pinned = try connection.integer("SELECT count(*) FROM responses WHERE pinned != 0 AND (\(match.sql))", match.values) ?? 0
            let deleted = try connection.run("DELETE FROM responses WHERE \(match.sql)", match.values)
            return PurgedEntries(entries: deleted, pinned: Int(pinned))
        }
    }

    /// Deletes unpinned entries, least recently used first, until the total `size` fits `byteBudget`.
    /// Pending access times are flushed first, so recent reads count. A pass that finds the cache
    /// within its budget (most do) reads the total and writes nothing.
    public func evict(toFit byteBudget: Int64) async throws -> Int {
        guard try await store.read(Self.totalSize) > byteBudget else { return 0 }
        try await store.flushAccessTimes()
        let evicted = try await store.write { connection in
            let total = try Self.totalSize(connection)
            guard total > byteBudget else { return 0 }
            let victims = try Self.leastRecentlyUsedUnpinned(toRemove: total - byteBudget, in: connection)
            for key in victims {
                try connection.run("DELETE FROM responses WHERE key = ?", [.text(key)])
            }
            return victims.count
        }
        evictedEntries.add(UInt64(evicted), ordering: .relaxed)
        return evicted
    }

    /// The bytes the cache's entries count against its budget.
    private static func totalSize(_ connection: SQLiteConnection) throws -> Int64 {
        try connection.integer("SELECT sum(size) FROM responses") ?? 0
    }

    /// Keys of unpinned entries, least recently used first, whose sizes add up to at least
    /// `excessBytes` (or all of them). The cursor is finished before the caller deletes.
    private static func leastRecentlyUsedUnpinned(toRemove excessBytes: Int64, in connection: SQLiteConnection) throws -> [String] {
        let candidates = try connection.prepare("SELECT key, size FROM responses WHERE pinned = 0 ORDER BY last_access, key")
        var victims: [String] = []
        var freed: Int64 = 0
        while freed < excessBytes, try candidates.step() {
            victims.append(candidates.text(at: 0) ?? "")
            freed += candidates.int64(at: 1)
        }
        return victims
    }

    /// Entries, body bytes, stale entries (at `now`), pinned entries and their bytes.
    public func statistics(now: Date, byteBudget: Int64, pinsOf owners: Set<Owner>?) async throws -> CacheStats {
        let owners = owners.map { $0.map(\.storedValue) }
        return try await store.read { connection in
            // Pinned by anyone; or by one of `owners` (`pins`, cache schema 10).
            let pinned = owners.map { list in
                "key IN (SELECT key FROM pins WHERE owner IN (\(Array(repeating: "?", count: max(1, list.count)).joined(separator: ", "))))"
            } ?? "pinned != 0"
            let statement = try connection.prepare("""
                SELECT count(*), coalesce(sum(size), 0), coalesce(sum(expires_at <= ?), 0), coalesce(sum(\(pinned)), 0),
                       coalesce(sum(CASE WHEN \(pinned) THEN size END), 0)
                FROM responses
                """, [.date(now)] + (owners.map { $0.isEmpty ? [.null, .null] : $0 + $0 } ?? []))
            guard try statement.step() else {
                return CacheStats(entries: 0, bytes: 0, staleEntries: 0, pinnedEntries: 0, byteBudget: byteBudget)
            }
            return CacheStats(
                entries: Int(statement.int64(at: 0)),
                bytes: statement.int64(at: 1),
                staleEntries: Int(statement.int64(at: 2)),
                pinnedEntries: Int(statement.int64(at: 3)),
                byteBudget: byteBudget,
                pinnedBytes: statement.int64(at: 4)
            )
        }
    }
}
