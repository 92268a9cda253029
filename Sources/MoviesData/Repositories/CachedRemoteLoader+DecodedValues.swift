import FoundationEssentials
import Synchronization

extension CachedRemoteLoader {
    /// The values most recently decoded from cached bodies, so a cache hit on an unchanged entry
    /// skips `JSONDecoder` (the largest cost of a cached answer; see BENCHMARKS.md), and, while
    /// the storage's revision stays the same, skips reading the storage too.
    ///
    /// A remembered value is reused only when the stored body and content type are byte-for-byte
    /// those it was decoded from, or when the storage's revision is still the one read before the
    /// entry was, so it is always exactly what decoding the stored entry would produce.
    /// Holds at most `capacity` entries; when full, an arbitrary one is dropped.
    final class DecodedValues: Sendable {
        private struct Entry {
            var stored: StoredResponse
            var value: any Sendable
            /// The storage revision read before `stored` was read.
            var revision: UInt64
        }

        private let entries = Mutex<[String: Entry]>([:])
        private let capacity: Int

        /// Creates an empty memo holding at most `capacity` values.
        init(capacity: Int = 64) {
            self.capacity = max(1, capacity)
        }

        /// The value decoded from exactly `entry`'s body, if remembered; the remembered entry
        /// becomes `entry` as of `revision` (read before `entry` was).
        func value<Value: Sendable>(for entry: StoredResponse, revision: UInt64, as type: Value.Type) -> Value? {
            entries.withLock { entries in
                guard var remembered = entries[entry.key],
                      remembered.stored.contentType == entry.contentType,
                      remembered.stored.body == entry.body,
                      let value = remembered.value as? Value else { return nil }
                if revision >= remembered.revision {
                    remembered.stored = entry
                    remembered.revision = revision
                    entries[entry.key] = remembered
                }
                return value
            }
        }

        /// The remembered entry and value for `key` when nothing was stored since they were read:
        /// `revision` (the storage's current one) is the one they were read at.
        func current<Value: Sendable>(key: String, revision: UInt64, as type: Value.Type) -> (entry: StoredResponse, value: Value)? {
            entries.withLock { entries in
                guard let remembered = entries[key], remembered.revision == revision,
                      let value = remembered.value as? Value else { return nil }
                return (remembered.stored, value)
            }
        }

        /// Remembers `value` as the decoding of `entry`, read at `revision`.
        func remember<Value: Sendable>(_ value: Value, for entry: StoredResponse, revision: UInt64) {
            entries.withLock { entries in
                if entries[entry.key] == nil, entries.count >= capacity, let victim = entries.keys.first {
                    entries[victim] = nil
                }
                entries[entry.key] = Entry(stored: entry, value: value, revision: revision)
            }
        }
    }
}
