import Foundation
@testable import MoviesDaemon
import MoviesData
import MoviesDomain
import MoviesTestSupport
import MoviesWire
import Synchronization
import Testing
@testable import Varlink

/// Turning cached-then-remote streams into Varlink replies, and the answer deadline.
@Suite struct UpdateRelayTests {

    /// A cached or network update of a string value.
    private static func update(_ value: String, _ origin: Freshness.Origin, remoteError: String? = nil) -> Fetched<String> {
        Fetched(value: value, freshness: Freshness(origin: origin, fetchedAt: Date(timeIntervalSince1970: 0), ageSeconds: 5, stale: false, remoteError: remoteError))
    }

    /// Updates fed by hand, as a task emits them.
    typealias UpdateStream = AsyncThrowingStream<Fetched<String>, any Error>

    /// The final reply made of the cached value when the plan falls back to it.
    private static let cachedFallback: @Sendable (String) -> [String: JSONValue] = { reason in
        ["value": .string("cached"), "origin": .string("cache"), "remoteError": .string(reason)]
    }

    /// Relays, for a call without `more`, a task that emits what `stream` delivers; `fallback`:
    /// the cached value's reply when the plan falls back to it.
    private static func answer(
        _ stream: UpdateStream, deadline: Int, fallback: (@Sendable (String) -> [String: JSONValue])? = cachedFallback
    ) async throws(VarlinkError) -> [String: JSONValue] {
        let relay = UpdateRelay(answerDeadlineSeconds: deadline)
        let writer = VarlinkReplyWriter(isStreaming: false) { _ in }
        let task: @Sendable (@escaping EmitFetched<String>) async throws -> Void = { emit in
            for try await update in stream { await emit(update) }
        }
        return try await relay.relay(task, call: VarlinkCall(method: "io.moviesd.Movies.Search"), replies: writer, parameter: "query", fallback: fallback) { update in
            ["value": .string(update.value), "origin": .string(update.freshness.origin.rawValue), "remoteError": update.freshness.remoteError.map { .string($0) } ?? .null]
        }
    }

    // MARK: - Through the service

    @Test func aSlowRemoteIsAnsweredFromTheCacheAtTheDeadlineAndStillStored() async throws {
        let harness = ServiceHarness(answerDeadlineSeconds: 1)
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"], fresh: false)
        await harness.scriptSearch("matrix", titles: ["Fresh Matrix"])
        await harness.remote.hold()
        let outcome = try await ServiceHarness.withTimeout(seconds: ProcessDeadline.seconds) {
            await harness.call("Search", ["query": .string("matrix")])
        }
        let reply = try outcome.decode(SearchReply.self)
        #expect(reply.page.movies.map(\.title) == ["Cached Matrix"])
        #expect(reply.freshness.origin == .cache)
        #expect(reply.freshness.remoteError?.contains("within 1 s") == true)

        #expect(await harness.remote.waitForHeldFetches(1))
        await harness.remote.release()
        let key = CacheKey.search(try #require(MovieQuery("matrix")), page: 1, language: nil)
        let stored = await ServiceHarness.eventually {
            guard let entry = await harness.storage.peek(key) else { return false }
            return String(decoding: entry.body, as: UTF8.self).contains("Fresh Matrix")
        }
        #expect(stored)
        // The recent query is recorded after the store, by the same background completion.
        #expect(await ServiceHarness.eventually { await harness.recentQueries.recentQueries(of: LocalUser(uid: ServiceHarness.owner.uid), maxCount: 5).map(\.query) == ["matrix"] })
    }

    @Test func withNothingCachedTheCallWaitsForTheNetworkPastTheDeadline() async throws {
        let harness = ServiceHarness(answerDeadlineSeconds: 0)
        await harness.scriptSearch("matrix", titles: ["Fresh Matrix"])
        await harness.remote.hold()
        let finished = Mutex(false)
        let call = Task {
            let outcome = await harness.call("Search", ["query": .string("matrix")])
            finished.withLock { $0 = true }
            return outcome
        }
        #expect(await harness.remote.waitForHeldFetches(1))
        try await Task.sleep(for: .milliseconds(200))
        #expect(!finished.withLock { $0 })
        await harness.remote.release()
        let reply = try await call.value.decode(SearchReply.self)
        #expect(reply.page.movies.map(\.title) == ["Fresh Matrix"])
        #expect(reply.freshness.origin == .network)
        #expect(reply.freshness.remoteError == nil)
    }

    @Test func cancellingACallCancelsItsRemoteFetch() async throws {
        let harness = ServiceHarness(answerDeadlineSeconds: 60)
        await harness.scriptSearch("matrix", titles: ["Fresh Matrix"])
        await harness.remote.hold()
        let call = Task { await harness.call("Search", ["query": .string("matrix")]) }
        #expect(await harness.remote.waitForHeldFetches(1))
        call.cancel()
        let outcome = try await ServiceHarness.withTimeout(seconds: ProcessDeadline.seconds) { await call.value }
        #expect(outcome.error?.name == "io.moviesd.Movies.Timeout")
        #expect(await ServiceHarness.eventually { await harness.remote.heldCount == 0 })
        #expect(await harness.storage.keys.isEmpty)
    }

    // MARK: - Hand-made streams

    @Test func withACachedValueToFallBackOnTheDeadlineAnswersWithItSayingWhy() async throws {
        let (stream, continuation) = UpdateStream.makeStream()
        defer { continuation.finish() }
        let reply = try await ServiceHarness.withTimeout(seconds: ProcessDeadline.seconds) {
            try await UpdateRelayTests.answer(stream, deadline: 0)
        }
        #expect(reply["value"] == .string("cached"))
        #expect(reply["remoteError"]?.stringValue?.contains("within 0 s") == true)
    }

    @Test func withoutAFallbackTheCallWaitsForTheUpdatePastTheDeadline() async throws {
        let (stream, continuation) = UpdateStream.makeStream()
        let feeder = Task {
            try await Task.sleep(for: .milliseconds(100))
            continuation.yield(UpdateRelayTests.update("cached", .cache))
            continuation.finish()
        }
        let reply = try await ServiceHarness.withTimeout(seconds: ProcessDeadline.seconds) {
            try await UpdateRelayTests.answer(stream, deadline: 0, fallback: nil)
        }
        try await feeder.value
        #expect(reply["value"] == .string("cached"))
        #expect(reply["remoteError"] == .null)
    }

    @Test func theNetworkAnswerWinsWithinTheDeadline() async throws {
        let (stream, continuation) = UpdateStream.makeStream()
        continuation.yield(UpdateRelayTests.update("fresh", .network))
        continuation.finish()
        let reply = try await UpdateRelayTests.answer(stream, deadline: 60)
        #expect(reply["value"] == .string("fresh"))
        #expect(reply["remoteError"] == .null)
    }

    @Test func anEnormousDeadlineDoesNotTrap() async throws {
        let (stream, continuation) = UpdateStream.makeStream()
        let feeder = Task {
            try await Task.sleep(for: .milliseconds(50))
            continuation.yield(UpdateRelayTests.update("fresh", .network))
            continuation.finish()
        }
        let reply = try await UpdateRelayTests.answer(stream, deadline: Int.max)
        try await feeder.value
        #expect(reply["value"] == .string("fresh"))
    }

    @Test func aFailureAnswersWithTheCachedValueAndTheReason() async throws {
        let (stream, continuation) = UpdateStream.makeStream()
        continuation.finish(throwing: MoviesError(code: .remoteUnavailable, message: "TMDB is unreachable"))
        let reply = try await UpdateRelayTests.answer(stream, deadline: 60)
        #expect(reply["value"] == .string("cached"))
        #expect(reply["remoteError"] == .string("TMDB is unreachable"))
    }

    @Test func aFailureWithNothingCachedIsTheErrorReply() async throws {
        let (stream, continuation) = UpdateStream.makeStream()
        continuation.finish(throwing: MoviesError.invalidArgument("bad query"))
        await #expect(throws: VarlinkError(name: "io.moviesd.Movies.InvalidArgument", parameters: ["parameter": .string("query"), "reason": .string("bad query")])) {
            try await UpdateRelayTests.answer(stream, deadline: 60, fallback: nil)
        }
        let (empty, emptyContinuation) = UpdateStream.makeStream()
        emptyContinuation.finish()
        await #expect(throws: VarlinkError.self) { try await UpdateRelayTests.answer(empty, deadline: 60, fallback: nil) }
    }

    @Test func cancellingTheCallCancelsTheConsumer() async throws {
        let (stream, continuation) = UpdateStream.makeStream()
        let terminated = Mutex(false)
        continuation.onTermination = { _ in terminated.withLock { $0 = true } }
        let call = Task { () async throws(VarlinkError) -> [String: JSONValue] in
            try await UpdateRelayTests.answer(stream, deadline: 60)
        }
        try await Task.sleep(for: .milliseconds(50))
        #expect(!terminated.withLock { $0 })
        call.cancel()
        #expect(await ServiceHarness.eventually { terminated.withLock { $0 } })
        let result = await call.result
        #expect(throws: VarlinkError.self) { try result.get() }
    }

    @Test func describeUsesTheDomainMessageOnly() {
        #expect(UpdateRelay.describe(MoviesError(code: .remoteUnavailable, message: "TMDB is unreachable")) == "TMDB is unreachable")
        struct Opaque: Error {}
        #expect(UpdateRelay.describe(Opaque()) == "the remote request failed")
    }
}
