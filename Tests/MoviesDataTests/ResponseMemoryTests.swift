import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesWire
import Testing

/// The memory of entries on its own: least recently used out first within the byte budget, the
/// body left out when a current reply says everything, a read that overlapped a write of its key
/// never remembered, and generations that move with an entry.
@Suite struct ResponseMemoryTests {
    static let start = Date(timeIntervalSince1970: 1_767_225_600)

    static func entry(_ key: String, body: Int = 500, reply: String? = nil, version: Int? = WireCoding.version, at offset: Double = 0) -> StoredResponse {
        StoredResponse(
            key: key, resource: .search, body: Data(repeating: 0x62, count: body),
            fetchedAt: start.addingTimeInterval(offset), expiresAt: start.addingTimeInterval(offset + 600),
            reply: reply.map { Array($0.utf8) }, replyVersion: version)
    }

    /// A save committed `entry`, as the store reports it.
    static func save(_ entry: StoredResponse, in memory: ResponseMemory) {
        memory.committed(ResponseMemory.Changes(touched: [entry.key], current: [entry]))
    }

    @Test func theLeastRecentlyUsedEntryLeavesFirst() {
        // Each entry is 500 bytes of body plus bookkeeping: three fit, four do not.
        let memory = ResponseMemory(byteBudget: 3 * 800)
        for key in ["a", "b", "c"] { Self.save(Self.entry(key), in: memory) }
        #expect(memory.remembered(forKey: "a", at: 0) != nil)  // a is now the most recent
        Self.save(Self.entry("d"), in: memory)
        #expect(memory.remembered(forKey: "b", at: 0) == nil, "b was used least recently")
        for key in ["a", "c", "d"] { #expect(memory.remembered(forKey: key, at: 0) != nil, "\(key)") }
        #expect(memory.usage.entries == 3)
        #expect(memory.usage.bytes <= 3 * 800)
    }

    @Test func aCurrentReplyStandsInForTheBodyAnOldOneDoesNot() throws {
        let memory = ResponseMemory(byteBudget: 1 << 20)
        Self.save(Self.entry("current", reply: "{}"), in: memory)
        Self.save(Self.entry("old", reply: "{}", version: WireCoding.version - 1), in: memory)
        Self.save(Self.entry("none"), in: memory)
        let current = try #require(memory.remembered(forKey: "current", at: 0)?.remembered)
        #expect(current.bodyOmitted && current.response.body.isEmpty && current.response.reply == Array("{}".utf8))
        for key in ["old", "none"] {
            let kept = try #require(memory.remembered(forKey: key, at: 0)?.remembered)
            #expect(!kept.bodyOmitted && kept.response.body.count == 500, "\(key)")
        }
    }

    @Test func aReadThatOverlappedAWriteOfItsKeyIsNotRememberedOthersAre() {
        let memory = ResponseMemory(byteBudget: 1 << 20)
        let mark = memory.writeMark(forKey: "a")
        Self.save(Self.entry("other"), in: memory)
        memory.committed(ResponseMemory.Changes(touched: ["a"], current: []))
        memory.fill(Self.entry("a"), readSince: mark)
        #expect(memory.remembered(forKey: "a", at: 0) == nil, "a was written (deleted) while it was read")
        memory.fill(Self.entry("b"), readSince: mark)  // one shard: one write count
        #expect(memory.remembered(forKey: "b", at: 0) != nil, "b was not written meanwhile")
        let prefixMark = memory.writeMark(forKey: "c")
        memory.committed(ResponseMemory.Changes(touched: (0..<2000).map { "zzz\($0)" }, current: []))  // more keys than it keeps track of
        memory.fill(Self.entry("c"), readSince: prefixMark)
        #expect(memory.remembered(forKey: "c", at: 0) == nil, "a write of many keys may have touched c")
    }

    @Test func keysAreSpreadOverShardsAndEachKeepsItsShareLeastRecentlyUsedOut() {
        let memory = ResponseMemory(byteBudget: 16 * 4 * 800, shards: 16)
        for index in 0..<(16 * 16) { Self.save(Self.entry("key\(index)"), in: memory) }
        let usage = memory.usage
        #expect(usage.bytes <= 16 * 4 * 800, "within the budget: \(usage)")
        #expect(usage.entries >= 16 * 2, "every shard holds its share, not one shard all: \(usage)")
        // The newest key of all is held; a write drops exactly it.
        #expect(memory.remembered(forKey: "key255", at: 0) != nil)
        memory.committed(ResponseMemory.Changes(touched: ["key255"], current: []))
        #expect(memory.remembered(forKey: "key255", at: 0) == nil)
        #expect(memory.usage.entries == usage.entries - 1)
    }

    @Test func generationsMoveWithTheEntryAndAccessesArePassedOnOnceASecond() throws {
        let memory = ResponseMemory(byteBudget: 1 << 20)
        Self.save(Self.entry("a"), in: memory)
        let first = try #require(memory.remembered(forKey: "a", at: 100))
        #expect(first.passOn)
        #expect(memory.remembered(forKey: "a", at: 100.5)?.passOn == false)
        #expect(memory.remembered(forKey: "a", at: 101)?.passOn == true)
        var revalidated = Self.entry("a", at: 50)
        revalidated.expiresAt = Self.start.addingTimeInterval(900)
        Self.save(revalidated, in: memory)
        let second = try #require(memory.remembered(forKey: "a", at: 101)?.remembered)
        #expect(second.generation != first.remembered.generation)
        #expect(second.response.expiresAt == Self.start.addingTimeInterval(900))
        memory.committed(ResponseMemory.Changes(touched: ["other"], current: []))
        #expect(memory.remembered(forKey: "a", at: 101)?.remembered.generation == second.generation, "a write of another key changes nothing")
    }

    @Test func anEntryLargerThanTheBudgetIsNotRememberedAndEvictsNothing() {
        let memory = ResponseMemory(byteBudget: 2000)
        Self.save(Self.entry("small"), in: memory)
        Self.save(Self.entry("huge", body: 10_000), in: memory)
        #expect(memory.remembered(forKey: "huge", at: 0) == nil)
        #expect(memory.remembered(forKey: "small", at: 0) != nil)
    }
}
