import Synchronization
import Varlink

/// The wire encodings of the values most recently sent, per request, so answering the same cached
/// value again skips `JSONEncoder` (the second-largest cost of a cached answer; see BENCHMARKS.md).
///
/// Bytes are reused only when the value equals the one they were encoded from (for a value the
/// loader's memo handed out again, `Array ==` sees the same storage and returns at once), so the
/// reply is exactly what encoding would produce. Holds at most `capacity` entries; when full, an
/// arbitrary one is dropped.
final class WireEncodingMemo<Key: Hashable & Sendable, Value: Encodable & Equatable & Sendable>: Sendable {
    private struct Entry {
        var value: Value
        var encoded: JSONValue
    }

    private let entries = Mutex<[Key: Entry]>([:])
    private let capacity: Int

    /// Creates an empty memo holding at most `capacity` encodings.
    init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
    }

    /// `WireValue.encode(value)`, reused when `value` is the last one encoded under `key`.
    func encode(_ value: Value, key: Key) -> JSONValue {
        if let hit = entries.withLock({ entries in entries[key].flatMap { $0.value == value ? $0.encoded : nil } }) {
            return hit
        }
        let encoded = WireValue.encode(value)
        entries.withLock { entries in
            if entries[key] == nil, entries.count >= capacity, let victim = entries.keys.first {
                entries[victim] = nil
            }
            entries[key] = Entry(value: value, encoded: encoded)
        }
        return encoded
    }
}
