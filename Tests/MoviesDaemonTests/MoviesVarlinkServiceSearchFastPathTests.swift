import Foundation
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing
@testable import MoviesDaemon
@testable import Varlink

/// `Search` answering a fresh cache hit without the stream (cache_first / cache_only): the reply
/// is byte-for-byte the one the stream path produces, and stale entries still take the stream path.
@Suite struct MoviesVarlinkServiceSearchFastPathTests {
    typealias SearchReply = ServiceHarness.SearchReply

    private func streamPathReply(_ harness: ServiceHarness, policy: FetchPolicy) async throws -> [UInt8] {
        let request = try SearchRequest(query: try #require(MovieQuery("matrix")))
        var updates: [Fetched<MoviesPage>] = []
        for try await update in harness.service.dependencies.searchMovies.execute(request, policy: policy) {
            updates.append(update)
        }
        let only = try #require(updates.count == 1 ? updates.first : nil)
        return JSONValue.object(["page": WireValue.encode(only.value), "freshness": WireValue.encode(only.freshness)]).serialized()
    }

    @Test(arguments: [("cache_first", FetchPolicy.cacheFirst), ("cache_only", FetchPolicy.cacheOnly)])
    func aFreshHitRepliesExactlyWhatTheStreamPathWould(policy: (name: String, value: FetchPolicy)) async throws {
        let harness = ServiceHarness()
        try await harness.seedSearch("matrix", titles: ["Cached Matrix", "Matrix Reloaded"], age: 90)
        let expected = try await streamPathReply(harness, policy: policy.value)
        for more in [false, true] {
            let outcome = await harness.call("Search", ["query": .string("matrix"), "policy": .string(policy.name)], more: more)
            #expect(outcome.intermediate.isEmpty)
            #expect(try JSONValue.object(outcome.final.get()).serialized() == expected)
        }
        #expect(await harness.remote.fetchCount == 0)
        #expect(await harness.recentQueries.recentQueries(maxCount: 5).isEmpty)
    }

    @Test func aStaleEntryUnderCacheFirstStillFetches() async throws {
        let harness = ServiceHarness()
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"], fresh: false)
        await harness.scriptSearch("matrix", titles: ["Fresh Matrix"])
        let outcome = await harness.call("Search", ["query": .string("matrix"), "policy": .string("cache_first")])
        let reply = try outcome.decode(SearchReply.self)
        #expect(reply.page.movies.map(\.title) == ["Fresh Matrix"])
        #expect(reply.freshness.origin == .network)
        #expect(await harness.remote.fetchCount == 1)
    }

    @Test func aStaleEntryUnderCacheOnlyIsServedMarkedStale() async throws {
        let harness = ServiceHarness()
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"], fresh: false)
        let reply = try await harness.call("Search", ["query": .string("matrix"), "policy": .string("cache_only")]).decode(SearchReply.self)
        #expect(reply.page.movies.map(\.title) == ["Cached Matrix"])
        #expect(reply.freshness.stale == true)
        #expect(await harness.remote.fetchCount == 0)
    }
}
