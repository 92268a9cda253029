import Foundation
@testable import MoviesDaemon
import MoviesData
import MoviesDomain
import MoviesTestSupport
import MoviesWire
import Testing
@testable import Varlink

/// Issue 27 through the Varlink service: while TMDB is paused, a search with the default policy
/// answers from the cache without asking TMDB, and `--fresh` (`network_only`) asks it at once.
@Suite struct RemoteDemandRoutingTests {
    @Test func duringThePauseUsersGetTheCacheAndFreshAsksTMDBAtOnce() async throws {
        let clock = TestClock()
        let health = RemoteHealth(now: clock.now, randomUnit: { 0.5 })
        // The answer deadline plays no part here (the paused remote is never asked); it is the
        // hang guard's, so that a starved machine cannot turn the pause's answer into a deadline's.
        let harness = ServiceHarness(answerDeadlineSeconds: Int(ProcessDeadline.seconds), health: health)
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"], fresh: false)
        await health.recordFailure(MoviesError(code: .remoteUnavailable, message: "TMDB refused the connection"))
        #expect(await health.isPaused())

        let user = try await harness.call("Search", ["query": .string("matrix")]).decode(SearchReply.self)
        #expect(user.page.movies.map(\.title) == ["Cached Matrix"])
        #expect(user.freshness.remoteError?.contains("not trying again") == true)
        #expect(await harness.remote.fetchCount == 0, "the user's call did not go to TMDB")

        await harness.scriptSearch("matrix", titles: ["Fresh Matrix"])
        let fresh = try await harness.call("Search", ["query": .string("matrix"), "policy": .string("network_only")]).decode(SearchReply.self)
        #expect(fresh.page.movies.map(\.title) == ["Fresh Matrix"])
        #expect(fresh.freshness.origin == .network)
        #expect(await harness.remote.fetchCount == 1)
        #expect(await health.remoteStatus().state == .online, "the explicit call's answer ends the pause for everyone")
    }

    @Test func aPlanTellsExplicitCallsFromUsersByTheirPolicyAndBackgroundWorkByItsAsker() {
        #expect(FetchPlan.make(policy: .networkOnly, streams: false, entry: .missing).demand == .explicit)
        for policy in [FetchPolicy.cacheThenNetwork, .cacheFirst, .cacheOnly, .localOnly] {
            #expect(FetchPlan.make(policy: policy, streams: false, entry: .missing).demand == .interactive)
        }
        #expect(FetchPlan.make(policy: .networkOnly, streams: false, entry: .missing, asker: .background).demand == .background)
    }
}
