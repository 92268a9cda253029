import FoundationEssentials
import MoviesData
import MoviesDomain

/// The contract of a storage's memory of entries (`ResponseMemory`), checked the same way for
/// every adapter that keeps one: after each kind of write, what the memory holds agrees with what
/// the storage holds, and the entries of keys the write did not touch are the very same ones (same
/// generation): no write empties the memory, each updates or drops exactly its keys.
public enum ResponseMemoryContract {
    /// Runs saves, a revalidation, an invalidation, pinning, an eviction and a purge through
    /// `storage` (empty, with a memory), checking after each; `truth` reads an entry bypassing the
    /// memory. Returns what disagreed (empty: the contract holds).
    public static func violations(
        of storage: any ResponseStorage, truth: @Sendable (String) async throws -> StoredResponse?, replyVersion: Int
    ) async throws -> [String] {
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        func entry(_ key: String, at offset: Double, reply: String?, version: Int? = replyVersion) -> StoredResponse {
            StoredResponse(
                key: key, resource: key.hasPrefix("movie") ? .movie : .search, body: Data(repeating: 0x62, count: 100),
                fetchedAt: start.addingTimeInterval(offset), expiresAt: start.addingTimeInterval(offset + 600), etag: "\"\(key)@\(offset)\"",
                reply: reply.map { Array($0.utf8) }, replyVersion: version)
        }
        let keys = ["search/a", "search/b", "movie/1?language="]
        var problems: [String] = []
        func check(after step: String, touched: Set<String>, generations: [String: UInt64]) async throws {
            for key in keys {
                let stored = try await truth(key)
                let remembered = storage.remembered(forKey: key)
                if let remembered {
                    let (mine, theirs) = (remembered.response, stored)
                    if theirs == nil { problems.append("\(step): \(key) is remembered but not stored") }
                    if let theirs, mine.fetchedAt != theirs.fetchedAt || mine.expiresAt != theirs.expiresAt || mine.etag != theirs.etag
                        || mine.reply != theirs.reply || mine.replyVersion != theirs.replyVersion || mine.httpStatus != theirs.httpStatus
                        || (!remembered.bodyOmitted && mine.body != theirs.body) {
                        problems.append("\(step): \(key) remembered as \(mine), stored as \(theirs)")
                    }
                }
                if !touched.contains(key), let before = generations[key], remembered?.generation != before {
                    problems.append("\(step): \(key) was not written but its remembered entry changed or went")
                }
            }
        }
        func generations() -> [String: UInt64] {
            keys.reduce(into: [:]) { found, key in found[key] = storage.remembered(forKey: key)?.generation }
        }

        try await storage.save(entry("search/a", at: 0, reply: #"{"a":0}"#))
        try await storage.save(entry("search/b", at: 0, reply: nil))
        try await storage.save(entry("movie/1?language=", at: 0, reply: #"{"m":0}"#, version: replyVersion + 1))
        for key in keys { _ = try await storage.response(forKey: key) }
        for key in keys where storage.remembered(forKey: key) == nil { problems.append("a stored and read \(key) is not remembered") }
        try await check(after: "reads", touched: [], generations: [:])

        var before = generations()
        try await storage.save(entry("search/a", at: 10, reply: #"{"a":10}"#))
        try await check(after: "a newer save", touched: ["search/a"], generations: before)
        before = generations()
        try await storage.save(entry("search/a", at: 5, reply: #"{"a":5}"#))
        try await check(after: "an older save (kept out)", touched: ["search/a"], generations: before)

        before = generations()
        try await storage.revalidate(key: "search/b", fetchedAt: start.addingTimeInterval(20), expiresAt: start.addingTimeInterval(900))
        try await check(after: "a revalidation", touched: ["search/b"], generations: before)

        before = generations()
        _ = try await storage.invalidate(keyPrefixes: ["search/b"], now: start.addingTimeInterval(30))
        try await check(after: "an invalidation", touched: ["search/b"], generations: before)

        before = generations()
        try await storage.pinForSystem(["search/a"])
        try await check(after: "pinning", touched: [], generations: before)

        before = generations()
        _ = try await storage.purge(keyPrefixes: ["movie/"])
        try await check(after: "a purge", touched: ["movie/1?language="], generations: before)
        if storage.remembered(forKey: "movie/1?language=") != nil { problems.append("a purged entry is still remembered") }

        before = generations()
        _ = try await storage.evict(toFit: 0)
        try await check(after: "an eviction", touched: ["search/b"], generations: before)
        if storage.remembered(forKey: "search/b") != nil { problems.append("an evicted entry is still remembered") }
        if storage.remembered(forKey: "search/a") == nil { problems.append("a pinned entry left the memory in an eviction") }
        return problems
    }
}
