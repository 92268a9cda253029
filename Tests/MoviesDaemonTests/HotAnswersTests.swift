import Foundation
@testable import MoviesDaemon
import MoviesDomain
import MoviesTestSupport
import MoviesWire
import Synchronization
import Testing
@testable import Varlink

/// The one memory in front of the cache: trusted only while the cache's change counter stays put,
/// within its byte budget, and its replies are exactly what encoding the answer would give.
@Suite struct HotAnswersTests {
    final class Counter: Sendable {
        let value = Atomic<UInt64>(0)
        let accesses = Mutex<[String]>([])
        func bump() { value.add(1, ordering: .relaxed) }
        var source: HotAnswers.Source {
            HotAnswers.Source(changeCount: { self.value.load(ordering: .relaxed) }, recordAccess: { key in self.accesses.withLock { $0.append(key) } })
        }
    }

    static let fetchedAt = Date(timeIntervalSince1970: 1_800_000_000)

    static func answer(_ json: String = #"{"page":1}"#, freshFor seconds: Double = 3600) -> CachedAnswer {
        CachedAnswer(json: Array(json.utf8), fetchedAt: fetchedAt, expiresAt: fetchedAt.addingTimeInterval(seconds))
    }

    @Test func anAnswerIsServedUntilTheCacheChanges() {
        let counter = Counter()
        let answers = HotAnswers(byteBudget: 1 << 20, source: counter.source, now: { Self.fetchedAt })
        let readAt = answers.changeCount
        answers.remember(Self.answer(), forKey: "k", readAt: readAt)
        #expect(answers.answer(forKey: "k") == Self.answer())
        #expect(answers.answer(forKey: "other") == nil)
        #expect(counter.accesses.withLock { $0 } == ["k"], "a hit counts for LRU eviction")
        counter.bump()
        #expect(answers.answer(forKey: "k") == nil)
        #expect(answers.reply(forKey: "k", at: Self.fetchedAt, continues: false) == nil)
    }

    @Test func anAnswerReadBeforeAChangeIsNeverServed() {
        let counter = Counter()
        let answers = HotAnswers(byteBudget: 1 << 20, source: counter.source, now: { Self.fetchedAt })
        let readAt = answers.changeCount
        counter.bump()  // a write lands while the answer is being read
        answers.remember(Self.answer(), forKey: "k", readAt: readAt)
        #expect(answers.answer(forKey: "k") == nil)
    }

    @Test func theByteBudgetBoundsWhatIsHeld() {
        let page = String(repeating: "x", count: 1000)
        let answers = HotAnswers(byteBudget: 2500, source: Counter().source, now: { Self.fetchedAt })
        for key in ["a", "b", "c", "d"] { answers.remember(Self.answer(page), forKey: key, readAt: 0) }
        let usage = answers.usage
        #expect(usage.bytes <= 2500)
        #expect(usage.answers >= 1 && usage.answers <= 2)
        #expect(answers.answer(forKey: "d") != nil, "the newest answer is kept")

        let none = HotAnswers(byteBudget: 0, source: Counter().source, now: { Self.fetchedAt })
        none.remember(Self.answer(), forKey: "a", readAt: 0)
        #expect(none.usage.answers == 0)
    }

    @Test(arguments: [0.0, 9, 10, 59.9, 12_345])
    func aReplyFromMemoryIsExactlyTheEncodedAnswer(age: Double) throws {
        let answers = HotAnswers(byteBudget: 1 << 20, source: Counter().source, now: { Self.fetchedAt })
        let answer = Self.answer(freshFor: 20_000)
        answers.remember(answer, forKey: "k", readAt: 0)
        let date = Self.fetchedAt.addingTimeInterval(age)
        let (reply, _) = try #require(answers.reply(forKey: "k", at: date, continues: false))
        let expected = VarlinkPreparedReply(parameters: ["page": .raw(answer.json), "freshness": try WireCoding.encode(answer.freshness(at: date))])
        #expect(reply.bytes == expected.bytes)
    }

    @Test func aStaleAnswerSaysSo() throws {
        let answers = HotAnswers(byteBudget: 1 << 20, source: Counter().source, now: { Self.fetchedAt })
        let answer = Self.answer(freshFor: 10)
        answers.remember(answer, forKey: "k", readAt: 0)
        let date = Self.fetchedAt.addingTimeInterval(30)
        let (reply, _) = try #require(answers.reply(forKey: "k", at: date, continues: false))
        let freshnessJSON = try #require(try JSONValue.parse(reply.bytes)["parameters"]?["freshness"])
        let freshness = try WireCoding.decode(Freshness.self, from: Array(freshnessJSON.serialized()))
        #expect(freshness.stale)
        #expect(freshness.ageSeconds == 30)
    }

    @Test func aPreparedReplySaysTheAgeOfTheMomentItIsSent() throws {
        let answers = HotAnswers(byteBudget: 1 << 20, source: Counter().source, now: { Self.fetchedAt })
        let answer = Self.answer(freshFor: 3600)
        answers.remember(answer, forKey: "k", readAt: 0)
        func message(_ age: Double, continues: Bool = false) throws -> JSONValue {
            let (reply, _) = try #require(answers.reply(forKey: "k", at: Self.fetchedAt.addingTimeInterval(age), continues: continues))
            #expect(reply.continues == continues)
            return try JSONValue.parse(reply.bytes)
        }
        #expect(try message(5)["parameters"]?["freshness"]?["ageSeconds"] == .int(5))
        #expect(try message(5.9)["parameters"]?["freshness"]?["ageSeconds"] == .int(5))
        #expect(try message(6)["parameters"]?["freshness"]?["ageSeconds"] == .int(6))
        let first = try message(7, continues: true)
        #expect(first["continues"] == .bool(true))
        #expect(first["parameters"]?["freshness"]?["ageSeconds"] == .int(7))
        #expect(try message(7)["continues"] == nil)
        #expect(try message(7)["parameters"]?["page"] == (try JSONValue.parse(answer.json)))
    }

    @Test func aPageIsHeldOnceAndOnlyTheHotKeysKeepAPreparedReply() throws {
        let page = #"{"movies":""# + String(repeating: "x", count: 10_000) + #""}"#
        let answers = HotAnswers(byteBudget: 100 << 20, source: Counter().source, now: { Self.fetchedAt })
        let keys = (0..<(HotAnswers.preparedCapacity * 3)).map { "k\($0)" }
        for key in keys {
            answers.remember(Self.answer(page), forKey: key, readAt: 0)
            _ = try #require(answers.reply(forKey: key, at: Self.fetchedAt, continues: false))
        }
        let usage = answers.usage
        #expect(usage.answers == keys.count)
        // Each entry counts its page once (plus a little), not once more for its prepared reply.
        #expect(usage.bytes < keys.count * (page.utf8.count + 1_000))
        #expect(answers.preparedCount <= HotAnswers.preparedCapacity)
        // A key without its prepared reply still answers, byte for byte the same.
        let again = try #require(answers.reply(forKey: keys[0], at: Self.fetchedAt, continues: false))
        let expected = VarlinkPreparedReply(parameters: ["page": .raw(Array(page.utf8)), "freshness": try WireCoding.encode(Self.answer(page).freshness(at: Self.fetchedAt))])
        #expect(again.reply.bytes == expected.bytes)
    }
    @Test func aHotKeyKeepsItsPreparedRepliesAcrossAWriteAndOnlyItsNewAnswer() throws {
        let counter = Counter()
        let clock = Mutex(Self.fetchedAt)
        let answers = HotAnswers(byteBudget: 1 << 20, source: counter.source, now: { clock.withLock { $0 } })
        answers.remember(Self.answer(#"{"v":1}"#), forKey: "hot", readAt: answers.changeCount)
        answers.remember(Self.answer(#"{"v":1}"#), forKey: "cold", readAt: answers.changeCount)
        _ = try #require(answers.reply(forKey: "hot", at: Self.fetchedAt, continues: true))
        #expect(answers.preparedCount == 1)

        // TMDB's answer is stored (the counter moves), then both keys are read again.
        counter.bump()
        let later = Self.fetchedAt.addingTimeInterval(2)
        clock.withLock { $0 = later }
        let fresh = CachedAnswer(json: Array(#"{"v":2}"#.utf8), fetchedAt: later, expiresAt: later.addingTimeInterval(60))
        answers.remember(fresh, forKey: "hot", readAt: answers.changeCount)
        answers.remember(fresh, forKey: "cold", readAt: answers.changeCount)
        #expect(answers.preparedCount == 1, "made again for the hot key only, before it is asked for")

        let (first, answer) = try #require(answers.reply(forKey: "hot", at: later, continues: true))
        #expect(answer == fresh)
        let message = try JSONValue.parse(first.bytes)
        #expect(message["continues"] == .bool(true))
        #expect(message["parameters"]?["page"] == .object(["v": .int(2)]))
        #expect(message["parameters"]?["freshness"]?["ageSeconds"] == .int(0))
    }
}
