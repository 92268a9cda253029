import Foundation
@testable import MoviesDaemon
import MoviesData
import MoviesDomain
import MoviesTestSupport
import MoviesWire
import Testing
@testable import Varlink

/// A cached answer arrives within the answer deadline in every mode, and a hanging fetch marks the
/// remote offline so later calls answer from the cache at once (issue 13, item 3).
@Suite struct BoundedWaitTests {

    @Test func aStreamingCallEndsWithTheCachedPageAtTheDeadline() async throws {
        // The answer deadline is real time: 3 s leaves a starved machine room to read the cache
        // before it (at 1 s the deadline could pass first, and the cached page came only as the end).
        let harness = ServiceHarness(answerDeadlineSeconds: 3)
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"], fresh: false)
        await harness.scriptSearch("matrix", titles: ["Fresh Matrix"])
        await harness.remote.hold()
        // Before: the call waited for the hanging fetch (here: forever, so the timeout fails it).
        let outcome = try await ServiceHarness.withTimeout(seconds: 30) {
            await harness.call("Search", ["query": .string("matrix")], more: true)
        }
        try #require(outcome.intermediate.count == 1, "the cached page comes first, before the deadline")
        #expect(try outcome.decodeIntermediate(0, as: SearchReply.self).freshness.origin == .cache)
        let final = try outcome.decode(SearchReply.self)
        #expect(final.page.movies.map(\.title) == ["Cached Matrix"])
        #expect(final.freshness.origin == .cache)
        #expect(final.freshness.remoteError?.contains("within 3 s") == true)
        await harness.remote.release()
    }

    @Test func afterAHangingFetchTheNextCallsAnswerFromTheCacheWithoutJoiningIt() async throws {
        let events = RecordingEventLog()
        // The back-off runs on a stopped clock: a starved machine cannot outlast it mid-test.
        let clock = TestClock()
        let health = RemoteHealth(configuration: .init(slowCallSeconds: 0.2), now: clock.now, events: events)
        let harness = ServiceHarness(answerDeadlineSeconds: 1, health: health)
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"], fresh: false)
        await harness.scriptSearch("matrix", titles: ["Fresh Matrix"])
        await harness.remote.hold()
        let first = try await ServiceHarness.withTimeout(seconds: 10) {
            await harness.call("Search", ["query": .string("matrix")], more: true)
        }
        #expect(try first.decode(SearchReply.self).freshness.origin == .cache)
        // The slow-call mark (0.2 s) and the answer deadline (1 s) are two real timers: on a starved
        // machine the answer can come first, so wait (bounded) for the mark.
        #expect(await ServiceHarness.eventually { await health.remoteStatus().state == .offline })

        // The remote is still hanging: these calls are gated, not joined to the held fetch.
        for more in [true, false] {
            let next = try await ServiceHarness.withTimeout(seconds: 10) {
                await harness.call("Search", ["query": .string("matrix")], more: more)
            }
            let reply = try next.decode(SearchReply.self)
            #expect(reply.page.movies.map(\.title) == ["Cached Matrix"])
            #expect(reply.freshness.remoteError?.contains("not trying again") == true, "\(reply.freshness.remoteError ?? "nil")")
        }
        #expect(await harness.remote.fetchCount == 1)
        #expect(events.names.filter { $0 == "remote.offline" }.count == 1)

        // The held fetch finally answers: the remote is back, said once.
        await harness.remote.release()
        #expect(await ServiceHarness.eventually { await health.remoteStatus().state == .online })
        #expect(events.names.filter { $0 == "remote.online" } == ["remote.online"])
    }

    @Test func rateLimitedWithNothingCachedFailsAtOnceWithRetryAfter() async throws {
        let harness = ServiceHarness(answerDeadlineSeconds: 3)
        await harness.remote.setHandler { _, _ in
            throw MoviesError(code: .remoteUnavailable, message: "TMDB is rate limiting requests; retry after 5 seconds.", retryAfterSeconds: 5, httpStatus: 429)
        }
        let outcome = await harness.call("Search", ["query": .string("never seen")], more: true)
        #expect(outcome.error?.name == "io.moviesd.Movies.RemoteUnavailable")
        #expect(outcome.error?.parameters["retryAfterSeconds"] == .int(5))
        // The next call does not reach TMDB at all.
        let again = await harness.call("Search", ["query": .string("another")], more: false)
        #expect(again.error?.parameters["retryAfterSeconds"] != nil)
        #expect(await harness.remote.fetchCount == 1)
    }
}

/// `--log-level debug`: one line per call with method, key, origin and milliseconds.
@Suite struct CallLogTests {
    @Test func eachCallIsOneDebugLine() async throws {
        let events = RecordingEventLog()
        let harness = ServiceHarness(events: events)
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"], fresh: false)
        await harness.scriptSearch("matrix", titles: ["Fresh Matrix"])
        _ = await harness.call("Search", ["query": .string("matrix")], more: true)
        _ = await harness.call("Status")
        let lines = events.events.filter { $0.name == "call" }
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.severity == .debug })
        let search = try #require(lines.first?.message)
        #expect(search.hasPrefix("call Search more key=query=\"matrix\" -> origin=network in "), "\(search)")
        #expect(search.hasSuffix(" ms"))
        #expect(lines.last?.message.hasPrefix("call Status key=- -> ok in ") == true)
    }

    @Test func nothingIsBuiltAboveDebug() async throws {
        let events = RecordingEventLog(minimumSeverity: .info)
        let harness = ServiceHarness(events: events)
        _ = await harness.call("Status")
        #expect(events.events.isEmpty)
    }
}
