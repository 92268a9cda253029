import Foundation
@testable import MoviesDaemon
import MoviesDomain
import MoviesTestSupport
import Testing
@testable import Varlink

/// The service's answers counted by origin, as its middleware reads them from each reply's
/// `freshness` (an object, or the JSON text the service splices), intermediate replies included.
@Suite struct AnswerTallyTests {
    @Test(arguments: [
        (#"{"ageSeconds":1,"fetchedAt":"2026-01-01T00:00:00Z","origin":"cache","stale":false}"#, AnswerTally.Origin.cache),
        (#"{"origin":"cache","remoteError":"TMDB refused the connection","stale":true}"#, .offlineFallback),
        (#"{"origin":"network","stale":false}"#, .network),
        (#"{"origin":"revalidated","stale":false}"#, .revalidated),
        (#"{"origin":"local_index","remoteError":"offline","stale":true}"#, .localIndex),
    ])
    func theOriginOfSplicedFreshness(text: String, origin: AnswerTally.Origin) throws {
        #expect(AnswerTally.origin(of: ["freshness": .raw(Array(text.utf8))]) == origin)
        #expect(AnswerTally.origin(of: ["freshness": try JSONValue.parse(Array(text.utf8))]) == origin)
    }

    @Test func repliesWithoutFreshnessAreNoAnswers() {
        #expect(AnswerTally.origin(of: ["queries": .array([])]) == nil)
        #expect(AnswerTally.origin(of: ["freshness": .object(["origin": .string("elsewhere")])]) == nil)
    }

    @Test func aStreamedCachedAnswerAndItsFallbackCountAsTwo() async throws {
        let harness = ServiceHarness()
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"], fresh: false)
        await harness.scriptSearchFailure("matrix", message: "TMDB refused the connection")
        // Streaming: the cached page first, then (TMDB failing) the cached page with the reason.
        _ = await harness.call("Search", ["query": .string("matrix")], more: true)
        // Not streaming: one answer, the fallback.
        _ = await harness.call("Search", ["query": .string("matrix")])
        let counts = harness.service.answerTally.snapshot
        let method = "io.moviesd.Movies.Search"
        #expect(counts == [
            AnswerTally.Key(method: method, origin: .cache): 1,
            AnswerTally.Key(method: method, origin: .offlineFallback): 2,
        ])
    }
}
