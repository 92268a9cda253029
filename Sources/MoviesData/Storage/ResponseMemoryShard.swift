import FoundationEssentials
import MoviesDomain
import Synchronization

/// One shard of `ResponseMemory`: the keys whose hash falls to it, within its share of the byte
/// budget, least recently used out first, behind a lock of its own.
final class ResponseMemoryShard: Sendable {
    /// One remembered key (a class: a lookup touches its fields in place, copying nothing).
    private final class Slot {
        let key: MemoryKey
        var remembered: ResponseMemory.Remembered
        let bytes: Int
        /// Neighbours in recency order (slot indices; -1: none).
        var older: Int
        var newer: Int
        /// When the last access was passed on to the database's LRU bookkeeping (Unix seconds).
        var accessPassedOnAt = -Double.infinity

        init(key: MemoryKey, remembered: ResponseMemory.Remembered, bytes: Int, older: Int, newer: Int) {
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

    /// How many recent writes are remembered for `fill(_:readSince:)`: a read that overlapped
    /// more writes than this fills nothing (at 35 writes a second, 30 s of them).
    static let recentWriteCapacity = 1024

    private let state: Mutex<State>
    private let byteBudget: Int
    /// The reply format served: an entry with a reply of this version is kept without its body.
    let replyVersion: Int
    private let externalRevision: @Sendable () -> UInt64

    /// Creates an empty shard of at most `byteBudget` bytes (see `ResponseMemory.init`).
    init(byteBudget: Int, replyVersion: Int, externalRevision: @escaping @Sendable () -> UInt64) {
        self.byteBudget = max(0, byteBudget)
        self.replyVersion = replyVersion
        self.externalRevision = externalRevision
        state = Mutex(State(externalMark: externalRevision()))
    }

    // MARK: Reads

    /// The entry remembered for `key`, made the most recently used; `passOn` is true at most once
    /// a second per key (`at` is Unix seconds), when the access should reach the database's LRU order.
    func remembered(forKey key: MemoryKey, at seconds: Double) -> (remembered: ResponseMemory.Remembered, passOn: Bool)? {
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
    var writeMark: UInt64 {
        state.withLock { $0.writes }
    }

    /// Remembers `response`, read from the database after `writeMark` was `mark`, unless a write
    /// touched its key since (then what was read may be older than what is stored).
    func fill(_ response: StoredResponse, key: MemoryKey, readSince mark: UInt64) {
        let external = externalRevision()
        state.withLock { state in
            Self.noticeExternal(external, in: &state)
            guard Self.untouched(key, since: mark, in: state), state.index[key] == nil else { return }
            insert(response, key: key, in: &state)
        }
    }

    /// What is held now, and the lookups and evictions so far (counted under the lock every
    /// lookup takes anyway).
    var statistics: ResponseMemory.Statistics {
        state.withLock { state in
            ResponseMemory.Statistics(
                entries: state.index.count, bytes: state.bytes, byteBudget: byteBudget, hits: state.hits, misses: state.misses,
                evictions: state.evictions)
        }
    }

    /// How many entries and bytes are held.
    var usage: (entries: Int, bytes: Int) {
        state.withLock { ($0.index.count, $0.bytes) }
    }

    // MARK: Writes (after their commit, in commit order)

    /// Whether an entry of `key` is held now (the writer re-reads the rows of held keys it touched,
    /// so that a change of expiry keeps the entry in memory).
    func holds(_ key: MemoryKey) -> Bool {
        state.withLock { $0.index[key] != nil }
    }

    /// A write committed `changes`: the entries of the keys it touched are replaced by their rows
    /// as now stored, or dropped when not re-read. Keys not touched keep their very entries.
    func committed(touched: [MemoryKey], current: [(MemoryKey, StoredResponse)]) {
        guard !touched.isEmpty else { return }
        state.withLock { state in
            if touched.count > Self.recentWriteCapacity {
                Self.recordWrite(nil, in: &state)
            } else {
                for key in touched { Self.recordWrite(key, in: &state) }
            }
            for key in touched { remove(key, in: &state) }
            for (key, response) in current { insert(response, key: key, in: &state) }
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
            key: key, remembered: ResponseMemory.Remembered(response: kept, generation: state.nextGeneration, bodyOmitted: omitted),
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
