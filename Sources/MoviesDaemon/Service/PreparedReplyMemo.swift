import MoviesDomain
import Synchronization
import Varlink

/// Encoded final replies to fresh cache hits answered from memory, per request, so answering the
/// same hit again is a copy of bytes (see BENCHMARKS.md).
///
/// A reply is reused only for the same cache revision (so the same value) and the same freshness
/// (the age moves every second), so it is always exactly what encoding the hit would produce.
/// Holds at most `capacity` entries; when full, an arbitrary one is dropped.
final class PreparedReplyMemo<Key: Hashable & Sendable>: Sendable {
    private struct Entry {
        var revision: UInt64
        var freshness: Freshness
        var reply: VarlinkPreparedReply
    }

    private let entries = Mutex<[Key: Entry]>([:])
    private let capacity: Int

    /// Creates an empty memo holding at most `capacity` replies.
    init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
    }

    /// The reply remembered for `key` at `revision` and `freshness`, else `make()`'s, remembered.
    func reply(for key: Key, revision: UInt64, freshness: Freshness, make: () -> VarlinkPreparedReply) -> VarlinkPreparedReply {
        let remembered = entries.withLock { entries in
            entries[key].flatMap { $0.revision == revision && $0.freshness == freshness ? $0.reply : nil }
        }
        if let remembered { return remembered }
        let reply = make()
        entries.withLock { entries in
            if entries[key] == nil, entries.count >= capacity, let victim = entries.keys.first {
                entries[victim] = nil
            }
            entries[key] = Entry(revision: revision, freshness: freshness, reply: reply)
        }
        return reply
    }
}
