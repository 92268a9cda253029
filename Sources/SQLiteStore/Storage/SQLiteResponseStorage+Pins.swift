import MoviesData
import MoviesDomain

extension SQLiteResponseStorage {
    /// Pins `keys` for `owner` within `budget` bytes, in one transaction (see `ResponseStorage.pin`).
    /// The owner's pinned bytes are read from `pinned_bytes`, which triggers keep (cache schema
    /// 10): a pin costs a lookup per key, however many the owner pins.
    public func pin(_ keys: [String], for owner: Owner, within budget: Int64, replacing: Bool) async throws -> PinResult {
        try await store.write { connection in
            let id = owner.storedValue
            if replacing { try connection.run("DELETE FROM pins WHERE owner = ?", [id]) }
            var pinned = try connection.integer("SELECT bytes FROM pinned_bytes WHERE owner = ?", [id]) ?? 0
            var refused = 0
            for key in keys {
                let entry = try connection.prepare(
                    "SELECT size, EXISTS (SELECT 1 FROM pins WHERE owner = ?1 AND key = ?2) FROM responses WHERE key = ?2", [id, .text(key)])
                guard try entry.step(), entry.int64(at: 1) == 0 else { continue }
                let size = entry.int64(at: 0)
                guard refused == 0, size <= budget - pinned else {
                    refused += 1
                    continue
                }
                try connection.run("INSERT OR IGNORE INTO pins (owner, key) VALUES (?, ?)", [id, .text(key)])
                pinned += size
            }
            return PinResult(pinnedBytes: pinned, refused: refused)
        }
    }

    /// Lets go of `owner`'s pins of `keys`.
    public func unpin(_ keys: [String], for owner: Owner) async throws {
        try await store.write { connection in
            for key in keys {
                try connection.run("DELETE FROM pins WHERE owner = ? AND key = ?", [owner.storedValue, .text(key)])
            }
        }
    }
}
