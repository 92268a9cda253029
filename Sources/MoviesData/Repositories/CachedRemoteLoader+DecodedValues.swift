import FoundationEssentials
import Synchronization

extension CachedRemoteLoader {
    /// The values most recently decoded from cached bodies, so a cache hit on an unchanged entry
    /// skips `JSONDecoder` (the largest cost of a cached answer; see BENCHMARKS.md).
    ///
    /// A remembered value is reused only when the stored body and content type are byte-for-byte
    /// those it was decoded from, so it is always exactly what decoding the entry would produce.
    /// Holds at most `capacity` entries; when full, an arbitrary one is dropped.
    final class DecodedValues: Sendable {
        private struct Entry {
            var body: Data
            var contentType: String
            var value: any Sendable
        }

        private let entries = Mutex<[String: Entry]>([:])
        private let capacity: Int

        /// Creates an empty memo holding at most `capacity` values.
        init(capacity: Int = 64) {
            self.capacity = max(1, capacity)
        }

        /// The value decoded from exactly `entry`'s body, if remembered.
        func value<Value: Sendable>(for entry: StoredResponse, as type: Value.Type) -> Value? {
            entries.withLock { entries in
                guard let remembered = entries[entry.key],
                      remembered.contentType == entry.contentType,
                      remembered.body == entry.body else { return nil }
                return remembered.value as? Value
            }
        }

        /// Remembers `value` as the decoding of `entry`.
        func remember<Value: Sendable>(_ value: Value, for entry: StoredResponse) {
            entries.withLock { entries in
                if entries[entry.key] == nil, entries.count >= capacity, let victim = entries.keys.first {
                    entries[victim] = nil
                }
                entries[entry.key] = Entry(body: entry.body, contentType: entry.contentType, value: value)
            }
        }
    }
}
