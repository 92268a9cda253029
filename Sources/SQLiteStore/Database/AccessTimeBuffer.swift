import Synchronization

/// Last-access times recorded by reads and not yet written, so a read never becomes a write.
///
/// Keyed by cache key (the newest time wins), so it holds at most one entry per key read since the
/// last flush. The writer drains it at the start of every write transaction and on close.
final class AccessTimeBuffer: Sendable {
    private let pending = Mutex<[String: Double]>([:])

    /// Records that `key` was read at `time` (Unix seconds). Returns the number of pending keys.
    func record(key: String, at time: Double) -> Int {
        pending.withLock { pending in
            pending[key] = max(pending[key] ?? time, time)
            return pending.count
        }
    }

    /// Takes every pending access, leaving the buffer empty.
    func drain() -> [String: Double] {
        pending.withLock { pending in
            let drained = pending
            pending = [:]
            return drained
        }
    }

    /// Puts back accesses that a failed write could not store (newest time wins).
    func restore(_ accesses: [String: Double]) {
        pending.withLock { pending in
            pending.merge(accesses) { max($0, $1) }
        }
    }

    /// Writes `accesses` to `responses.last_access`, never moving a time backwards.
    static func apply(_ accesses: [String: Double], to connection: SQLiteConnection) throws {
        for (key, time) in accesses {
            let statement = try connection.prepare("UPDATE responses SET last_access = max(last_access, ?) WHERE key = ?", [.real(time), .text(key)])
            while try statement.step() {}
        }
    }
}
