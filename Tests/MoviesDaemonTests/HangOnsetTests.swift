import Foundation
@testable import MoviesDaemon
import MoviesData
import MoviesDomain
import MoviesTestSupport
import MoviesWire
import Testing
@testable import Varlink

/// Calls already waiting on a fetch when TMDB starts hanging are answered at their answer
/// deadline, not the network deadline (issue 27): the one that started the fetch and the one that
/// joined it, with a cached page, a local-index answer, or `RemoteUnavailable`. The fetch goes on.
///
/// The deadline here is the data layer's (the slow-call mark, which the daemon sets to the answer
/// deadline) on a sleep the test ends; the relay's own real-time deadline is the harness's hang
/// guard, so it cannot answer for the data layer on a slow machine.
@Suite(.timeLimit(.minutes(1))) struct HangOnsetTests {
    enum Case: String, CaseIterable, Sendable {
        /// A stale cached page, default policy (the page, then TMDB's answer).
        case cached
        /// A stale cached page, `cache_first` (TMDB first, the page if TMDB fails).
        case cachedCacheFirst
        /// No cached page, but a cached movie matches: the local index answers.
        case localIndex
        /// Nothing cached, nothing matching.
        case uncached

        var query: String {
            switch self {
            case .cached, .cachedCacheFirst: "matrix"
            case .localIndex: "wars"
            case .uncached: "never seen"
            }
        }

        var parameters: [String: JSONValue] {
            var parameters: [String: JSONValue] = ["query": .string(query)]
            if self == .cachedCacheFirst { parameters["policy"] = .string("cache_first") }
            return parameters
        }
    }

    @Test(arguments: Case.allCases)
    func callsWaitingOnAFetchWhenTMDBStartsHangingAreAnsweredAtTheirDeadline(_ kind: Case) async throws {
        let sleeper = ManualSleeper()
        let health = RemoteHealth(
            configuration: .init(slowCallSeconds: 3), now: TestClock().now, randomUnit: { 0.5 },
            sleep: { seconds in try await sleeper.sleep(seconds) })
        let harness = ServiceHarness(health: health, localIndex: true)
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"], fresh: false)
        // Ids 1 and 2: "Star Wars" (2) is not the matrix page's movie 1.
        try await harness.seedSearch("star", titles: ["Lone Star", "Star Wars"], age: 3600)
        await harness.scriptSearch(kind.query, titles: ["Fresh Answer"])
        await harness.remote.hold()

        // The first call starts the fetch, which hangs; the second joins it.
        let first = Task { await harness.call("Search", kind.parameters, more: kind == .cached) }
        #expect(await harness.remote.waitForHeldFetches(1))
        #expect(await sleeper.waitForSleepers(1))
        let second = Task { await harness.call("Search", kind.parameters) }
        #expect(await sleeper.waitForSleepers(2), "the second call joins the hanging fetch")
        #expect(sleeper.requested == [3, 3], "each call waits at most the answer deadline")

        // The answer deadline passes; TMDB still has not answered.
        sleeper.elapse()
        let outcomes = [await first.value, await second.value]
        for outcome in outcomes {
            switch kind {
            case .cached, .cachedCacheFirst:
                let reply = try outcome.decode(SearchReply.self)
                #expect(reply.page.movies.map(\.title) == ["Cached Matrix"])
                #expect(reply.freshness.origin == .cache)
                #expect(reply.freshness.remoteError?.contains("did not answer within 3 s") == true, "\(reply.freshness.remoteError ?? "nil")")
            case .localIndex:
                let reply = try outcome.decode(SearchReply.self)
                #expect(reply.freshness.origin == .localIndex)
                #expect(reply.page.movies.map(\.title) == ["Star Wars"])
                #expect(reply.freshness.remoteError?.contains("did not answer within 3 s") == true)
            case .uncached:
                #expect(outcome.error?.name == "io.moviesd.Movies.RemoteUnavailable")
            }
        }
        #expect(await harness.remote.fetchCount == 1, "one fetch, joined, not repeated")
        #expect(await harness.remote.heldCount == 1, "the fetch goes on in the background")
        #expect(await health.remoteStatus().state == .offline)

        // When TMDB finally answers, the fetch still stores its page.
        await harness.remote.release()
        let query = try #require(MovieQuery(kind.query))
        let key = CacheKey.search(query, page: 1, language: nil)
        #expect(await ServiceHarness.eventually { (try? await harness.storage.response(forKey: key))?.fetchedAt == harness.clock.date })
    }

    @Test func backgroundWorkWaitsForTMDBsAnswerNotTheAnswerDeadline() async throws {
        // A refresh's step on a slow link: nobody waits on it, so it must not give up at 3 s.
        let sleeper = ManualSleeper()
        let health = RemoteHealth(
            configuration: .init(slowCallSeconds: 3), now: TestClock().now, randomUnit: { 0.5 },
            sleep: { seconds in try await sleeper.sleep(seconds) })
        let harness = ServiceHarness(health: health)
        await harness.scriptSearch("matrix", titles: ["Fresh Matrix"])
        await harness.remote.hold()
        let request = try SearchRequest(query: #require(MovieQuery("matrix")), page: 1)
        let searchMovies = harness.service.dependencies.searchMovies
        let step = Task { () async throws -> Fetched<MoviesPage> in
            let updates = FetchedUpdates<MoviesPage>()
            try await RemoteDemand.$current.withValue(.background) {
                try await searchMovies.execute(request, policy: .networkOnly, requester: nil) { updates.emit($0) }
            }
            return try #require(updates.last)
        }
        #expect(await harness.remote.waitForHeldFetches(1))
        #expect(sleeper.sleeping == 0, "no patience timer for background work")
        await harness.remote.release()
        let fetched = try await step.value
        #expect(fetched.freshness.origin == .network)
        #expect(fetched.value.movies.map(\.title) == ["Fresh Matrix"])
    }
}
