import Glibc

/// Calls decoded from recently seen small messages, so a client that repeats a call (a script
/// polling `Status`, a load generator, a cron job) is not parsed again.
///
/// Keyed by the message's exact bytes, so a hit is exactly what decoding would produce. Only
/// successful decodes of messages up to `maxMessageBytes` are kept, at most `capacity` of them;
/// when full, an arbitrary one is dropped. Owned by the event loop thread.
struct DecodedCallMemo {
    /// A message's bytes as a key, hashed and compared as one block of memory.
    private struct MessageKey: Hashable {
        let bytes: ArraySlice<UInt8>

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }

        static func == (lhs: MessageKey, rhs: MessageKey) -> Bool {
            guard lhs.bytes.count == rhs.bytes.count else { return false }
            return lhs.bytes.withUnsafeBytes { left in
                rhs.bytes.withUnsafeBytes { right in
                    guard let left = left.baseAddress, let right = right.baseAddress else { return true }
                    return memcmp(left, right, lhs.bytes.count) == 0
                }
            }
        }
    }

    private var entries: [MessageKey: VarlinkMessage.DecodedCall] = [:]
    private let capacity: Int
    private let maxMessageBytes: Int

    /// Creates an empty memo.
    init(capacity: Int = 256, maxMessageBytes: Int = 512) {
        self.capacity = max(1, capacity)
        self.maxMessageBytes = maxMessageBytes
    }

    /// How many decoded calls are remembered (at most `capacity`).
    var count: Int { entries.count }

    /// `VarlinkMessage.decodeCall(bytes)`, from memory when these bytes were decoded before.
    mutating func decode(_ bytes: ArraySlice<UInt8>) -> Result<VarlinkMessage.DecodedCall, VarlinkError> {
        guard bytes.count <= maxMessageBytes else { return VarlinkMessage.decodeCall(bytes) }
        if let remembered = entries[MessageKey(bytes: bytes)] { return .success(remembered) }
        let result = VarlinkMessage.decodeCall(bytes)
        if case .success(let decoded) = result {
            if entries.count >= capacity, let victim = entries.keys.first { entries[victim] = nil }
            // A copy: the key must not keep the connection's whole input buffer alive.
            entries[MessageKey(bytes: ArraySlice(Array(bytes)))] = decoded
        }
        return result
    }
}
