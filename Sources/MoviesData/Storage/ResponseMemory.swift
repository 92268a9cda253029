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
/// probe; nothing here waits, so the server's event loops may look up an answer themselves. The
/// keys are spread over `shards`, each with its lock and its share of the budget, so that loops
/// answering from memory at once rarely wait for each other; least recently used is per shard.
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

    private let shards: [ResponseMemoryShard]
    /// The reply format served: an entry with a reply of this version is kept without its body.
    public let replyVersion: Int

    /// Creates an empty memory of at most `byteBudget` bytes (0: remembers nothing) in `shards`
    /// shards of an equal share each.
    /// - Parameters:
    ///   - replyVersion: the reply format served (`WireCoding.version`): only such replies
    ///     stand in for the body.
    ///   - externalRevision: moves when another process has written the database (read without
    ///     waiting); the memory is emptied when it does.
    public init(
        byteBudget: Int, shards: Int = 1, replyVersion: Int = WireCoding.version, externalRevision: @escaping @Sendable () -> UInt64 = { 0 }
    ) {
        let count = max(1, shards)
        let share = max(0, byteBudget) / count
        self.shards = (0..<count).map { _ in ResponseMemoryShard(byteBudget: share, replyVersion: replyVersion, externalRevision: externalRevision) }
        self.replyVersion = replyVersion
    }

    private func shard(of key: MemoryKey) -> ResponseMemoryShard {
        shards[index(of: key)]
    }

    // MARK: Reads

    /// The entry remembered for `key`, made the most recently used; `passOn` is true at most once
    /// a second per key (`at` is Unix seconds), when the access should reach the database's LRU order.
    public func remembered(forKey key: String, at seconds: Double) -> (remembered: Remembered, passOn: Bool)? {
        let key = MemoryKey(key)
        return shard(of: key).remembered(forKey: key, at: seconds)
    }

    /// The write count of `key`'s shard now: pass it to `fill(_:readSince:)` for the entry of
    /// `key` about to be read.
    public func writeMark(forKey key: String) -> UInt64 {
        shard(of: MemoryKey(key)).writeMark
    }

    /// Remembers `response`, read from the database after `writeMark(forKey:)` was `mark`, unless
    /// a write touched its key since (then what was read may be older than what is stored).
    public func fill(_ response: StoredResponse, readSince mark: UInt64) {
        let key = MemoryKey(response.key)
        shard(of: key).fill(response, key: key, readSince: mark)
    }

    /// How many entries and bytes are held.
    public var usage: (entries: Int, bytes: Int) {
        shards.reduce((0, 0)) { total, shard in
            let usage = shard.usage
            return (total.0 + usage.entries, total.1 + usage.bytes)
        }
    }

    /// What is held now, and the lookups and evictions so far, over every shard.
    public var statistics: Statistics {
        shards.reduce(Statistics(entries: 0, bytes: 0, byteBudget: 0, hits: 0, misses: 0, evictions: 0)) { total, shard in
            let part = shard.statistics
            return Statistics(
                entries: total.entries + part.entries, bytes: total.bytes + part.bytes, byteBudget: total.byteBudget + part.byteBudget,
                hits: total.hits + part.hits, misses: total.misses + part.misses, evictions: total.evictions + part.evictions)
        }
    }

    // MARK: Writes (after their commit, in commit order)

    /// Whether an entry of `key` is held now (the writer re-reads the rows of held keys it touched,
    /// so that a change of expiry keeps the entry in memory).
    public func holds(_ key: String) -> Bool {
        let key = MemoryKey(key)
        return shard(of: key).holds(key)
    }

    /// A write committed `changes`: the entries of the keys it touched are replaced by their rows
    /// as now stored, or dropped when not re-read. Keys not touched keep their very entries.
    public func committed(_ changes: Changes) {
        guard !changes.touched.isEmpty else { return }
        var touched = Array(repeating: [MemoryKey](), count: shards.count)
        var current = Array(repeating: [(MemoryKey, StoredResponse)](), count: shards.count)
        for text in changes.touched {
            let key = MemoryKey(text)
            touched[index(of: key)].append(key)
        }
        for response in changes.current {
            let key = MemoryKey(response.key)
            current[index(of: key)].append((key, response))
        }
        for (index, shard) in shards.enumerated() where !touched[index].isEmpty {
            shard.committed(touched: touched[index], current: current[index])
        }
    }

    private func index(of key: MemoryKey) -> Int {
        Int(UInt(bitPattern: key.hashValue) % UInt(shards.count))
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
