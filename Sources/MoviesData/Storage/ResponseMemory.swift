import FoundationEssentials
import MoviesDomain
import MoviesWire
import Synchronization

/// The daemon's one memory of cached responses: a write-through, per-key copy of what the cache
/// database holds, within a byte budget, least recently used out first.
///
/// It is a layer of the storage port: a read fills it (`SQLiteResponseStorage`), and the store
/// keeps it in step with every write (`SQLiteStore.keepInStep`): after each commit, in commit
/// order, the keys the database reports the transaction touched are updated with their new rows
/// or dropped (`committed(_:)`); no writer calls it. Nothing else invalidates it, except a commit
/// by another process (`externalRevision` moved), which empties it: which keys another process
/// touched is unknown.
///
/// An entry with a stored reply of the current `WireCoding.version` keeps that reply and not
/// TMDB's body (`body` is empty, `bodyOmitted`): everything the daemon answers or decides from a
/// cached search page or movie is in the reply. Lookups and updates are a lock and a dictionary
/// probe; nothing here waits, so the server's event loop may look up an answer itself.
public final class ResponseMemory: Sendable {
    /// A remembered entry and its generation: a number that changes whenever the entry does, so
    /// that whoever holds one can tell whether the entry changed since (the memory's contract
    /// tests check with it that each write touched exactly its keys).
    /// (A class: handing one out is one reference, however many fields the entry has.)
    public final class Remembered: Sendable {
        /// The entry, as the database holds it (without the body when `bodyOmitted`).
        public let response: StoredResponse
        /// Changes with every update of this key's entry.
        public let generation: UInt64
        /// Whether the body was left out (the entry has a current reply, which says everything).
        public let bodyOmitted: Bool

        init(response: StoredResponse, generation: UInt64, bodyOmitted: Bool) {
            self.response = response
            self.generation = generation
            self.bodyOmitted = bodyOmitted
        }
    }

    /// One remembered key (a class: a lookup touches its fields in place, copying nothing).
    private final class Slot {
        let key: MemoryKey
        var remembered: Remembered
        let bytes: Int
        /// Neighbours in recency order (slot indices; -1: none).
        var older: Int
        var newer: Int
        /// When the last access was passed on to the database's LRU bookkeeping (Unix seconds).
        var accessPassedOnAt = -Double.infinity

        init(key: MemoryKey, remembered: Remembered, bytes: Int, older: Int, newer: Int) {
            self.key = key
            self.remembered = remembered
            self.bytes = bytes
            self.older = older
            self.newer = newer
        }
    }

    private struct State {
        var index: [MemoryKey: Int] = [:]
        var slots: [Slot?] = []
        var freeSlots: [Int] = []
        var newest = -1
        var oldest = -1
        var bytes = 0
        var nextGeneration: UInt64 = 0
        /// `externalRevision` when the memory was last emptied for it.
        var externalMark: UInt64 = 0
        /// Writes seen so far, and the keys of the latest ones (`nil`: a write of many keys): a
        /// read that began before one of them may not fill its key (`fill(_:readSince:)`).
        var writes: UInt64 = 0
        var recentWrites: [MemoryKey?] = []
        /// Lookups that found their key, and that did not; entries let go for the byte budget.
        var hits: UInt64 = 0
        var misses: UInt64 = 0
        var evictions: UInt64 = 0
    }

    /// What the memory holds and has done since it was made.
    public struct Statistics: Sendable, Hashable {
        /// Entries held now.
        public var entries: Int
        /// Bytes they take (as the budget counts them).
        public var bytes: Int
        /// The byte budget.
        public var byteBudget: Int
        /// Lookups that found their key.
        public var hits: UInt64
        /// Lookups that did not.
        public var misses: UInt64
        /// Entries let go, least recently used first, to stay within the budget.
        public var evictions: UInt64
    }

    /// How many recent writes are remembered for `fill(_:readSince:)`: a read that overlapped
    /// more writes than this fills nothing (at 35 writes a second, 30 s of them).
    static let recentWriteCapacity = 1024

    private let state: Mutex<State>
    private let byteBudget: Int
    /// The reply format served: an entry with a reply of this version is kept without its body.
    public let replyVersion: Int
    private let externalRevision: @Sendable () -> UInt64

    /// Creates an empty memory of at most `byteBudget` bytes (0: remembers nothing).
    /// - Parameters:
    ///   - replyVersion: the reply format served (`WireCoding.version`): only such replies
    ///     stand in for the body.
    ///   - externalRevision: moves when another process has written the database (read without
    ///     waiting); the memory is emptied when it does.
    public init(byteBudget: Int, replyVersion: Int = WireCoding.version, externalRevision: @escaping @Sendable () -> UInt64 = { 0 }) {
        self.byteBudget = max(0, byteBudget)
        self.replyVersion = replyVersion
        self.externalRevision = externalRevision
        state = Mutex(State(externalMark: externalRevision()))
    }

    // MARK: Reads

    /// The entry remembered for `key`, made the most recently used; `passOn` is true at most once
    /// a second per key (`at` is Unix seconds), when the access should reach the database's LRU order.
    public func remembered(forKey key: String, at seconds: Double) -> (remembered: Remembered, passOn: Bool)? {
        let key = MemoryKey(key)
        let external = externalRevision()
        return state.withLock { state in
            Self.noticeExternal(external, in: &state)
            guard let position = state.index[key], let found = state.slots[position] else {
                #if !MOVIESD_NO_METRICS
                state.misses &+= 1
                #endif
                return nil
            }
            #if !MOVIESD_NO_METRICS
            state.hits &+= 1
            #endif
            let passOn = !(seconds - found.accessPassedOnAt < 1)
            if passOn { found.accessPassedOnAt = seconds }
            Self.makeNewest(position, in: &state)
            return (found.remembered, passOn)
        }
    }

    /// The write count now: pass it to `fill(_:readSince:)` for an entry about to be read.
    public var writeMark: UInt64 {
        state.withLock { $0.writes }
    }

    /// Remembers `response`, read from the database after `writeMark` was `mark`, unless a write
    /// touched its key since (then what was read may be older than what is stored).
    public func fill(_ response: StoredResponse, readSince mark: UInt64) {
        let key = MemoryKey(response.key)
        let external = externalRevision()
        state.withLock { state in
            Self.noticeExternal(external, in: &state)
            guard Self.untouched(key, since: mark, in: state), state.index[key] == nil else { return }
            insert(response, key: key, in: &state)
        }
    }

    /// How many entries and bytes are held.
    public var usage: (entries: Int, bytes: Int) {
        state.withLock { ($0.index.count, $0.bytes) }
    }

    /// What is held now, and the lookups and evictions so far (counted under the lock every
    /// lookup takes anyway).
    public var statistics: Statistics {
        state.withLock { state in
            Statistics(
                entries: state.index.count, bytes: state.bytes, byteBudget: byteBudget, hits: state.hits, misses: state.misses,
                evictions: state.evictions)
        }
    }

    // MARK: Writes (after their commit, in commit order)

    /// What one committed write transaction changed, as the database reported it.
    public struct Changes: Sendable {
        /// Every key whose row was inserted, deleted or changed.
        public var touched: [String]
        /// The rows as now stored, of those touched keys that were re-read (the others, and
        /// deleted ones, are dropped: the next read remembers them again).
        public var current: [StoredResponse]

        /// Creates the changes of one transaction.
        public init(touched: [String], current: [StoredResponse]) {
            self.touched = touched
            self.current = current
        }
    }

    /// Whether an entry of `key` is held now (the writer re-reads the rows of held keys it touched,
    /// so that a change of expiry keeps the entry in memory).
    public func holds(_ key: String) -> Bool {
        let key = MemoryKey(key)
        return state.withLock { $0.index[key] != nil }
    }

    /// A write committed `changes`: the entries of the keys it touched are replaced by their rows
    /// as now stored, or dropped when not re-read. Keys not touched keep their very entries.
    public func committed(_ changes: Changes) {
        guard !changes.touched.isEmpty else { return }
        state.withLock { state in
            if changes.touched.count > Self.recentWriteCapacity {
                Self.recordWrite(nil, in: &state)
            } else {
                for key in changes.touched { Self.recordWrite(MemoryKey(key), in: &state) }
            }
            for key in changes.touched { remove(MemoryKey(key), in: &state) }
            for response in changes.current { insert(response, key: MemoryKey(response.key), in: &state) }
        }
    }

    // MARK: Bookkeeping

    private static func noticeExternal(_ external: UInt64, in state: inout State) {
        guard external != state.externalMark else { return }
        state.externalMark = external
        state.index.removeAll()
        state.slots.removeAll()
        state.freeSlots.removeAll()
        state.newest = -1
        state.oldest = -1
        state.bytes = 0
        recordWrite(nil, in: &state)
    }

    private static func recordWrite(_ key: MemoryKey?, in state: inout State) {
        if state.recentWrites.count < recentWriteCapacity {
            state.recentWrites.append(key)
        } else {
            state.recentWrites[Int(state.writes % UInt64(recentWriteCapacity))] = key
        }
        state.writes &+= 1
    }

    /// Whether no write since `mark` touched `key` (or many keys), as far as the ring tells.
    private static func untouched(_ key: MemoryKey, since mark: UInt64, in state: State) -> Bool {
        let since = state.writes &- mark
        guard since > 0 else { return true }
        guard since <= UInt64(state.recentWrites.count) else { return false }
        for back in 1...since {
            let position = Int((state.writes &- back) % UInt64(recentWriteCapacity))
            guard let written = state.recentWrites[position], written != key else { return false }
        }
        return true
    }

    private func insert(_ response: StoredResponse, key: MemoryKey, in state: inout State) {
        var kept = response
        let omitted = response.httpStatus == 200 && response.reply(atVersion: replyVersion) != nil
        if omitted { kept.body = Data() }
        let bytes = kept.body.count + (kept.reply?.count ?? 0) + key.key.utf8.count + 256
        guard bytes <= byteBudget else { return }
        state.nextGeneration &+= 1
        let slot = Slot(
            key: key, remembered: Remembered(response: kept, generation: state.nextGeneration, bodyOmitted: omitted),
            bytes: bytes, older: state.newest, newer: -1)
        let position: Int
        if let free = state.freeSlots.popLast() {
            position = free
            state.slots[free] = slot
        } else {
            position = state.slots.count
            state.slots.append(slot)
        }
        if state.newest >= 0 { state.slots[state.newest]?.newer = position }
        state.newest = position
        if state.oldest < 0 { state.oldest = position }
        state.index[key] = position
        state.bytes += bytes
        while state.bytes > byteBudget, state.oldest >= 0, state.oldest != position, let victim = state.slots[state.oldest]?.key {
            remove(victim, in: &state)
            state.evictions &+= 1
        }
    }

    private func remove(_ key: MemoryKey, in state: inout State) {
        guard let position = state.index.removeValue(forKey: key), let slot = state.slots[position] else { return }
        if slot.older >= 0 { state.slots[slot.older]?.newer = slot.newer } else { state.oldest = slot.newer }
        if slot.newer >= 0 { state.slots[slot.newer]?.older = slot.older } else { state.newest = slot.older }
        state.slots[position] = nil
        state.freeSlots.append(position)
        state.bytes -= slot.bytes
    }

    private static func makeNewest(_ position: Int, in state: inout State) {
        guard state.newest != position, let slot = state.slots[position] else { return }
        if slot.older >= 0 { state.slots[slot.older]?.newer = slot.newer } else { state.oldest = slot.newer }
        if slot.newer >= 0 { state.slots[slot.newer]?.older = slot.older }
        slot.older = state.newest
        slot.newer = -1
        if state.newest >= 0 { state.slots[state.newest]?.newer = position }
        state.newest = position
    }
}

/// A cache key as the memory files it: the key with its hash computed once. Cache keys share long
/// prefixes (`search/movie?query=…&language=&page=`), so comparing two of them byte by byte while
/// probing a table of thousands was a fifth of the daemon's time over a wide working set; probing
/// compares hashes, and the bytes only of the key that matches.
struct MemoryKey: Hashable, Sendable {
    let key: String
    private let hash: Int

    init(_ key: String) {
        self.key = key
        var hasher = Hasher()
        hasher.combine(key)
        hash = hasher.finalize()
    }

    static func == (lhs: MemoryKey, rhs: MemoryKey) -> Bool {
        lhs.hash == rhs.hash && lhs.key == rhs.key
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }
}
