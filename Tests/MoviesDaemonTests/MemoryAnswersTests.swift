import Foundation
import Glibc
@testable import MoviesDaemon
import MoviesData
import MoviesDomain
import MoviesTestSupport
import MoviesWire
import Testing
@testable import Varlink

/// `Search` and `Movie` answered from memory on the event loop: what memory holds (filled by a
/// read, changed by exactly the writes of its key), the reply's bytes and age, and the calls it
/// does not answer. What each scenario answers, in-process and over a socket alike, is
/// `CachedThenRemoteScenarioTests`.
@Suite struct MemoryAnswersTests {

    // MARK: - answerAtOnce

    private func atOnceCall(_ parameters: [String: JSONValue], method: String = "Search", more: Bool = false, oneway: Bool = false) -> VarlinkCall {
        VarlinkCall(method: "\(MoviesInterface.name).\(method)", parameters: parameters, more: more, oneway: oneway, peer: ServiceHarness.owner)
    }

    /// The parameters of a prepared reply, as the client would parse them (nil unless a plain final reply).
    private func parameters(of reply: VarlinkPreparedReply) throws -> JSONValue? {
        let message = try JSONValue.parse(reply.bytes)
        guard let members = message.objectValue, Set(members.keys) == ["parameters"] else { return nil }
        return members["parameters"]
    }

    /// A prepared reply's parameters decoded as a `Search` reply.
    private func decode(_ reply: VarlinkPreparedReply) throws -> SearchReply {
        let parameters = try #require(try parameters(of: reply))
        return try WireCoding.decode(SearchReply.self, from: Array(parameters.serialized()))
    }

    private func titles(_ reply: VarlinkPreparedReply?) throws -> [String] {
        try decode(try #require(reply)).page.movies.map(\.title)
    }

    private static let cacheFirst: [String: JSONValue] = ["query": .string("matrix"), "policy": .string("cache_first")]

    @Test func nothingIsAnsweredAtOnceBeforeTheEntryWasRead() async throws {
        let harness = ServiceHarness()
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"])
        #expect(harness.service.answerAtOnce(atOnceCall(Self.cacheFirst)) == nil)
        #expect(await harness.storage.readCount == 0)
    }

    @Test(arguments: ["cache_first", "cache_only"])
    func afterOneSearchTheSameSearchIsAnsweredAtOnceWithTheSameReply(policy: String) async throws {
        let harness = ServiceHarness()
        try await harness.seedSearch("matrix", titles: ["Cached Matrix", "Matrix Reloaded"], age: 90)
        let parameters: [String: JSONValue] = ["query": .string("matrix"), "policy": .string(policy)]
        let normal = await harness.call("Search", parameters)
        let expected = try #require(normal.reply)
        let reads = await harness.storage.readCount

        for (more, query) in [(false, "matrix"), (true, "matrix"), (false, "  MATRIX ")] {
            var call = parameters
            call["query"] = .string(query)
            let prepared = try #require(harness.service.answerAtOnce(atOnceCall(call, more: more)), "\(query) more: \(more)")
            #expect(try self.parameters(of: prepared) == expected)
        }
        let decoded = try decode(try #require(harness.service.answerAtOnce(atOnceCall(parameters))))
        #expect(decoded.page.movies.map(\.title) == ["Cached Matrix", "Matrix Reloaded"])
        #expect(decoded.freshness.origin == .cache)
        #expect(decoded.freshness.ageSeconds == 90)
        #expect(decoded.freshness.stale == false)
        #expect(await harness.storage.readCount == reads)
        #expect(await harness.remote.fetchCount == 0)
    }

    @Test func theAnswerFollowsTheClockLikeTheNormalPath() async throws {
        let harness = ServiceHarness()
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"], age: 90)
        _ = await harness.call("Search", Self.cacheFirst)
        #expect(try decode(try #require(harness.service.answerAtOnce(atOnceCall(Self.cacheFirst)))).freshness.ageSeconds == 90)
        // Same cache revision, one more second of age: a reply prepared earlier must not be reused.
        harness.clock.advance(by: 15)
        let prepared = try #require(harness.service.answerAtOnce(atOnceCall(Self.cacheFirst)))
        #expect(try decode(prepared).freshness.ageSeconds == 105)
        let normal = await harness.call("Search", Self.cacheFirst)
        #expect(try parameters(of: prepared) == normal.reply)
        #expect(try normal.decode(SearchReply.self).freshness.ageSeconds == 105)
    }

    @Test func otherMethodsOtherPoliciesAndBadParametersAreNotAnsweredAtOnce() async throws {
        let harness = ServiceHarness()
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"])
        await harness.seedMovie(id: 5, title: "Five")
        _ = await harness.call("Search", Self.cacheFirst)
        _ = await harness.call("Movie", ["id": .int(5), "policy": .string("cache_first")])
        #expect(harness.service.answerAtOnce(atOnceCall(Self.cacheFirst)) != nil)

        #expect(harness.service.answerAtOnce(atOnceCall(["id": .int(5), "policy": .string("network_only")], method: "Movie")) == nil)
        #expect(harness.service.answerAtOnce(atOnceCall([:], method: "Status")) == nil)
        #expect(harness.service.answerAtOnce(atOnceCall(["query": .string("matrix")], method: "Purge")) == nil)
        #expect(await harness.storage.keys.count == 2)  // asking never runs a call

        for policy: JSONValue in [.string("cache_then_network"), .string("network_only"), .null] {
            #expect(harness.service.answerAtOnce(atOnceCall(["query": .string("matrix"), "policy": policy])) == nil, "\(policy)")
        }
        #expect(harness.service.answerAtOnce(atOnceCall(["query": .string("matrix")])) == nil)

        let bad: [[String: JSONValue]] = [
            ["query": .string("matrix"), "policy": .string("cache_first"), "colour": .string("red")],
            ["query": .string("matrix"), "policy": .string("cache_first"), "maxStaleSeconds": .int(-1)],
            ["query": .string("matrix"), "policy": .string("cache_first"), "page": .int(0)],
            ["query": .string("matrix"), "policy": .string("cache_first"), "language": .string("english")],
            ["query": .string("   "), "policy": .string("cache_first")],
            ["query": .int(7), "policy": .string("cache_first")],
            ["policy": .string("cache_first")],
            ["query": .string("matrix"), "policy": .string("sometimes")],
        ]
        for parameters in bad {
            #expect(harness.service.answerAtOnce(atOnceCall(parameters)) == nil, "\(parameters)")
            let normal = await harness.call("Search", parameters)
            #expect(normal.error != nil, "\(parameters)")
        }
        #expect(await harness.call("Search", bad[0]).error == .invalidParameter("colour"))
        #expect(await harness.call("Search", bad[1]).error?.name == "io.moviesd.Movies.InvalidArgument")
        #expect(await harness.remote.fetchCount == 0)
    }

    @Test func anotherPageOrQueryIsNotAnsweredFromThisOne() async throws {
        let harness = ServiceHarness()
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"])
        try await harness.seedSearch("alien", titles: ["Cached Alien"])
        _ = await harness.call("Search", Self.cacheFirst)
        var page2 = Self.cacheFirst
        page2["page"] = .int(2)
        #expect(harness.service.answerAtOnce(atOnceCall(page2)) == nil)
        #expect(harness.service.answerAtOnce(atOnceCall(["query": .string("alien"), "policy": .string("cache_first")])) == nil)
        _ = await harness.call("Search", ["query": .string("alien"), "policy": .string("cache_first")])
        let alien = try #require(harness.service.answerAtOnce(atOnceCall(["query": .string("alien"), "policy": .string("cache_first")])))
        let matrix = try #require(harness.service.answerAtOnce(atOnceCall(Self.cacheFirst)))
        #expect(try titles(alien) == ["Cached Alien"])
        #expect(try titles(matrix) == ["Cached Matrix"])
    }

    @Test func afterAPurgeNothingIsAnsweredAtOnceAndCacheOnlyIsNotCached() async throws {
        let harness = ServiceHarness()
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"])
        let cacheOnly: [String: JSONValue] = ["query": .string("matrix"), "policy": .string("cache_only")]
        _ = await harness.call("Search", cacheOnly)
        #expect(harness.service.answerAtOnce(atOnceCall(cacheOnly)) != nil)
        #expect(await harness.call("Purge", ["query": .string("matrix")]).reply?["entries"] == .int(1))
        #expect(harness.service.answerAtOnce(atOnceCall(cacheOnly)) == nil)
        #expect(harness.service.answerAtOnce(atOnceCall(Self.cacheFirst)) == nil)
        #expect(await harness.call("Search", cacheOnly).error?.name == "io.moviesd.Movies.NotCached")
        #expect(harness.service.answerAtOnce(atOnceCall(cacheOnly)) == nil)
    }

    @Test func afterAnInvalidateTheStaleEntryIsNotAnsweredAtOnce() async throws {
        let harness = ServiceHarness()
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"])
        _ = await harness.call("Search", Self.cacheFirst)
        #expect(await harness.call("Invalidate", ["query": .string("matrix")]).reply?["entries"] == .int(1))
        #expect(harness.service.answerAtOnce(atOnceCall(Self.cacheFirst)) == nil)
        let cacheOnly = await harness.call("Search", ["query": .string("matrix"), "policy": .string("cache_only")])
        #expect(try cacheOnly.decode(SearchReply.self).freshness.stale)
        #expect(harness.service.answerAtOnce(atOnceCall(Self.cacheFirst)) == nil)
    }

    @Test func aNewerPageFromTheNetworkReplacesTheRememberedReply() async throws {
        let harness = ServiceHarness()
        try await harness.seedSearch("matrix", titles: ["Old Matrix"])
        _ = await harness.call("Search", Self.cacheFirst)
        #expect(try titles(harness.service.answerAtOnce(atOnceCall(Self.cacheFirst))) == ["Old Matrix"])
        await harness.scriptSearch("matrix", titles: ["New Matrix"])
        _ = await harness.call("Search", ["query": .string("matrix"), "policy": .string("network_only")])
        // The call remembered the page it stored: the next one is answered from memory with it.
        #expect(try titles(harness.service.answerAtOnce(atOnceCall(Self.cacheFirst))) == ["New Matrix"])
        let normal = await harness.call("Search", Self.cacheFirst)
        #expect(try normal.decode(SearchReply.self).page.movies.map(\.title) == ["New Matrix"])
        let prepared = try #require(harness.service.answerAtOnce(atOnceCall(Self.cacheFirst)))
        #expect(try parameters(of: prepared) == normal.reply)
    }

    @Test func aChangedPageWithTheSameFreshnessIsNotAnsweredWithTheOldReply() async throws {
        let harness = ServiceHarness()
        try await harness.seedSearch("matrix", titles: ["First Matrix"], age: 60)
        _ = await harness.call("Search", Self.cacheFirst)
        #expect(try titles(harness.service.answerAtOnce(atOnceCall(Self.cacheFirst))) == ["First Matrix"])
        // Another body stored with the very same fetchedAt and expiresAt: only the revision tells.
        try await harness.seedSearch("matrix", titles: ["Second Matrix"], age: 60)
        #expect(harness.service.answerAtOnce(atOnceCall(Self.cacheFirst)) == nil)
        let normal = await harness.call("Search", Self.cacheFirst)
        #expect(try normal.decode(SearchReply.self).page.movies.map(\.title) == ["Second Matrix"])
        let prepared = try #require(harness.service.answerAtOnce(atOnceCall(Self.cacheFirst)))
        #expect(try titles(prepared) == ["Second Matrix"])
        #expect(try parameters(of: prepared) == normal.reply)
    }

    @Test func overARealServerRepeatedSearchesAreAnsweredWithoutReadingTheCacheAgain() async throws {
        let harness = ServiceHarness(daemonUID: getuid())
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"], age: 30)

        let parameters = Self.cacheFirst
        let replies = try await harness.overARealSocket { client in
            var replies: [VarlinkReply] = []
            for more in [false, false, true] {
                try client.call("io.moviesd.Movies.Search", parameters: parameters, more: more) { replies.append($0) }
            }
            try client.call("io.moviesd.Movies.Search", parameters: parameters, oneway: true) { replies.append($0) }
            try client.call("io.moviesd.Movies.Search", parameters: ["query": .string("matrix"), "policy": .string("cache_only")]) { replies.append($0) }
            return replies
        }

        #expect(replies.count == 4)
        #expect(replies.allSatisfy { $0.error == nil && !$0.continues })
        #expect(Set(replies.map { $0.parameters.serialized() }).count == 1)
        let reply = try WireCoding.decode(SearchReply.self, from: Array(try #require(replies.first).parameters.serialized()))
        #expect(reply.page.movies.map(\.title) == ["Cached Matrix"])
        #expect(reply.freshness.ageSeconds == 30)
        // Only the first call read the cache; the other four were answered from memory.
        #expect(await harness.storage.readCount == 1)
        #expect(await harness.remote.fetchCount == 0)
    }

    /// Issue 30: one write emptied all of memory. A write touches only its own key: pages stored
    /// for other queries (a miss, a refresh, the change feed) leave this one answered from memory.
    @Test func writesOfOtherKeysLeaveAnAnswerInMemory() async throws {
        let harness = ServiceHarness()
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"], age: 30)
        _ = await harness.call("Search", Self.cacheFirst)
        let before = try #require(harness.service.answerAtOnce(atOnceCall(Self.cacheFirst)))
        for other in ["alien", "heat", "up"] {
            await harness.scriptSearch(other, titles: ["Fresh \(other)"])
            _ = await harness.call("Search", ["query": .string(other), "policy": .string("network_only")])
        }
        _ = await harness.call("Invalidate", ["query": .string("alien")])
        _ = await harness.call("Purge", ["query": .string("heat")])
        let reads = await harness.storage.readCount
        let after = try #require(harness.service.answerAtOnce(atOnceCall(Self.cacheFirst)), "still answered from memory")
        #expect(after.bytes == before.bytes)
        #expect(try titles(after) == ["Cached Matrix"])
        #expect(await harness.storage.readCount == reads)
        #expect(harness.service.answerAtOnce(atOnceCall(["query": .string("up"), "policy": .string("cache_first")])) != nil,
                "a page TMDB sent is in memory at once: written through, not read back")
    }

    /// One pipeline: the answer from memory passes the router's middleware like any call, so the
    /// debug call log has its line without the service writing one by hand.
    @Test func anAnswerFromMemoryHasItsCallLogLine() async throws {
        let events = RecordingEventLog()
        let harness = ServiceHarness(events: events)
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"])
        _ = await harness.call("Search", Self.cacheFirst)
        let before = events.events.filter { $0.name == "call" }.count
        _ = try #require(harness.service.answerAtOnce(atOnceCall(Self.cacheFirst)))
        let lines = events.events.filter { $0.name == "call" }.map(\.message)
        #expect(lines.count == before + 1)
        #expect(lines.last?.contains("call Search key=") == true && lines.last?.contains("origin=cache (memory)") == true, "\(lines)")
        #expect(harness.service.answerAtOnce(atOnceCall(["query": .string("nothing cached"), "policy": .string("cache_first")])) == nil)
        #expect(events.events.filter { $0.name == "call" }.count == before + 1, "no line for a call that goes on to its task (the task writes it)")
    }

    @Test func aMoviesCachedDetailsAreAnsweredAtOnceWithTheReplyOfTheNormalPath() async throws {
        let harness = ServiceHarness()
        await harness.seedMovie(id: 603, title: "The Matrix")
        let parameters: [String: JSONValue] = ["id": .int(603), "policy": .string("cache_first")]
        let normal = await harness.call("Movie", parameters)
        let expected = try #require(normal.reply)
        let reads = await harness.storage.readCount
        let prepared = try #require(harness.service.answerAtOnce(atOnceCall(parameters, method: "Movie")))
        #expect(try self.parameters(of: prepared) == expected)
        let reply = try WireCoding.decode(MovieReply.self, from: Array(try #require(try self.parameters(of: prepared)).serialized()))
        #expect(reply.movie.title == "The Matrix")
        #expect(reply.freshness.origin == .cache)
        #expect(await harness.storage.readCount == reads)
        #expect(await harness.remote.fetchCount == 0)
        #expect(harness.service.answerAtOnce(atOnceCall(["id": .int(604), "policy": .string("cache_first")], method: "Movie")) == nil)
    }

    // MARK: - The default policy's first reply

    private static let defaultPolicy: [String: JSONValue] = ["query": .string("matrix")]

    private func decodeSearch(_ parameters: JSONValue) throws -> SearchReply {
        try WireCoding.decode(SearchReply.self, from: Array(parameters.serialized()))
    }

    @Test func underTheDefaultPolicyAMoreCallsFirstReplyComesFromMemoryAndTheRestFromTMDB() async throws {
        let harness = ServiceHarness()
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"], age: 90)
        await harness.scriptSearch("matrix", titles: ["Fresh Matrix"])
        _ = await harness.call("Search", Self.cacheFirst)
        let reads = await harness.storage.readCount
        #expect(harness.service.answerAtOnce(atOnceCall(Self.defaultPolicy)) == nil, "without more, the call waits for TMDB")

        let first = try #require(harness.service.answerAtOnce(atOnceCall(Self.defaultPolicy, more: true)))
        #expect(first.continues)
        let message = try JSONValue.parse(first.bytes)
        #expect(message["continues"] == .bool(true))
        let cached = try decodeSearch(try #require(message["parameters"]))
        #expect(cached.page.movies.map(\.title) == ["Cached Matrix"])
        #expect(cached.freshness.origin == .cache)
        #expect(cached.freshness.ageSeconds == 90)
        #expect(await harness.storage.readCount == reads, "the first reply read nothing")

        // The server then runs the call knowing the first reply went out: it is not sent twice.
        let rest = await harness.call("Search", Self.defaultPolicy, more: true, firstReplySent: true)
        #expect(rest.intermediate.isEmpty)
        let fresh = try rest.decode(SearchReply.self)
        #expect(fresh.page.movies.map(\.title) == ["Fresh Matrix"])
        #expect(fresh.freshness.origin == .network)
        #expect(await harness.remote.fetchCount == 1)
    }

    @Test func withNothingInMemoryTheHandlerSendsTheCachedPageFirstAndRemembersTMDBsPage() async throws {
        let harness = ServiceHarness()
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"], age: 90)
        await harness.scriptSearch("matrix", titles: ["Fresh Matrix"])
        let outcome = await harness.call("Search", Self.defaultPolicy, more: true)
        #expect(outcome.intermediate.count == 1)
        let cached = try decodeSearch(try #require(outcome.intermediate.first))
        #expect(cached.page.movies.map(\.title) == ["Cached Matrix"])
        #expect(cached.freshness.origin == .cache)
        #expect(try outcome.decode(SearchReply.self).page.movies.map(\.title) == ["Fresh Matrix"])
        // The network's page was stored and remembered in its place: the next call's first reply
        // is TMDB's page, from memory.
        let reads = await harness.storage.readCount
        let next = try #require(harness.service.answerAtOnce(atOnceCall(Self.defaultPolicy, more: true)))
        #expect(try decodeSearch(try #require(try JSONValue.parse(next.bytes)["parameters"])).page.movies.map(\.title) == ["Fresh Matrix"])
        #expect(await harness.storage.readCount == reads)
    }

    @Test func aStaleEntryWithinMaxStaleIsTheFirstReplyFromMemoryUnderTheDefaultPolicyButNotPastIt() async throws {
        let harness = ServiceHarness()
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"], age: 90, fresh: false)
        _ = await harness.call("Search", ["query": .string("matrix"), "policy": .string("cache_only")])
        let first = try #require(harness.service.answerAtOnce(atOnceCall(Self.defaultPolicy, more: true)))
        #expect(first.continues, "TMDB's answer follows")
        var tooOld = Self.defaultPolicy
        tooOld["maxStaleSeconds"] = .int(0)
        #expect(harness.service.answerAtOnce(atOnceCall(tooOld, more: true)) == nil, "past the call's max-stale: TMDB only")
    }

    @Test func afterAFirstReplyFromMemoryALateTMDBEndsTheCallAtTheDeadline() async throws {
        let harness = ServiceHarness(answerDeadlineSeconds: 1)
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"], age: 30)
        _ = await harness.call("Search", Self.cacheFirst)
        await harness.scriptSearch("matrix", titles: ["Fresh Matrix"])
        await harness.remote.hold()
        let outcome = try await ServiceHarness.withTimeout(seconds: ProcessDeadline.seconds) {
            await harness.call("Search", Self.defaultPolicy, more: true, firstReplySent: true)
        }
        let final = try outcome.decode(SearchReply.self)
        #expect(final.page.movies.map(\.title) == ["Cached Matrix"])
        #expect(final.freshness.remoteError?.contains("within 1 s") == true)
    }
}
