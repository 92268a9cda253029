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

    @Test func theLeastRecentlyUsedEntryLeavesFirst() {
        // Each entry is 500 bytes of body plus bookkeeping: three fit, four do not.
        let memory = ResponseMemory(byteBudget: 3 * 800)
        for key in ["a", "b", "c"] { memory.saved(Self.entry(key)) }
        #expect(memory.remembered(forKey: "a", at: 0) != nil)  // a is now the most recent
        memory.saved(Self.entry("d"))
        #expect(memory.remembered(forKey: "b", at: 0) == nil, "b was used least recently")
        for key in ["a", "c", "d"] { #expect(memory.remembered(forKey: key, at: 0) != nil, "\(key)") }
        #expect(memory.usage.entries == 3)
        #expect(memory.usage.bytes <= 3 * 800)
    }

    @Test func aCurrentReplyStandsInForTheBodyAnOldOneDoesNot() throws {
        let memory = ResponseMemory(byteBudget: 1 << 20)
        memory.saved(Self.entry("current", reply: "{}"))
        memory.saved(Self.entry("old", reply: "{}", version: WireCoding.version - 1))
        memory.saved(Self.entry("none"))
        let current = try #require(memory.remembered(forKey: "current", at: 0)?.remembered)
        #expect(current.bodyOmitted && current.response.body.isEmpty && current.response.reply == Array("{}".utf8))
        for key in ["old", "none"] {
            let kept = try #require(memory.remembered(forKey: key, at: 0)?.remembered)
            #expect(!kept.bodyOmitted && kept.response.body.count == 500, "\(key)")
        }
    }

    @Test func aReadThatOverlappedAWriteOfItsKeyIsNotRememberedOthersAre() {
        let memory = ResponseMemory(byteBudget: 1 << 20)
        let mark = memory.writeMark
        memory.saved(Self.entry("other"))
        memory.deleted(keys: ["a"])
        memory.fill(Self.entry("a"), readSince: mark)
        #expect(memory.remembered(forKey: "a", at: 0) == nil, "a was written (deleted) while it was read")
        memory.fill(Self.entry("b"), readSince: mark)
        #expect(memory.remembered(forKey: "b", at: 0) != nil, "b was not written meanwhile")
        let prefixMark = memory.writeMark
        memory.purged(keyPrefixes: ["zzz"])
        memory.fill(Self.entry("c"), readSince: prefixMark)
        #expect(memory.remembered(forKey: "c", at: 0) == nil, "a write of many keys may have touched c")
    }

    @Test func generationsMoveWithTheEntryAndAccessesArePassedOnOnceASecond() throws {
        let memory = ResponseMemory(byteBudget: 1 << 20)
        memory.saved(Self.entry("a"))
        let first = try #require(memory.remembered(forKey: "a", at: 100))
        #expect(first.passOn)
        #expect(memory.remembered(forKey: "a", at: 100.5)?.passOn == false)
        #expect(memory.remembered(forKey: "a", at: 101)?.passOn == true)
        memory.revalidated(key: "a", fetchedAt: Self.start.addingTimeInterval(50), expiresAt: Self.start.addingTimeInterval(900))
        let second = try #require(memory.remembered(forKey: "a", at: 101)?.remembered)
        #expect(second.generation != first.remembered.generation)
        #expect(second.response.expiresAt == Self.start.addingTimeInterval(900))
        memory.revalidated(key: "a", fetchedAt: Self.start.addingTimeInterval(10), expiresAt: Self.start.addingTimeInterval(5000))
        #expect(memory.remembered(forKey: "a", at: 101)?.remembered.generation == second.generation, "an older revalidation changes nothing")
        memory.saved(Self.entry("a", at: -10))
        #expect(memory.remembered(forKey: "a", at: 101)?.remembered.response.fetchedAt == Self.start.addingTimeInterval(50), "newer wins")
    }

    @Test func anEntryLargerThanTheBudgetIsNotRememberedAndEvictsNothing() {
        let memory = ResponseMemory(byteBudget: 2000)
        memory.saved(Self.entry("small"))
        memory.saved(Self.entry("huge", body: 10_000))
        #expect(memory.remembered(forKey: "huge", at: 0) == nil)
        #expect(memory.remembered(forKey: "small", at: 0) != nil)
    }
}
