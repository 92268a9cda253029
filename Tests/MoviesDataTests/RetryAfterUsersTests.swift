import FoundationEssentials
import MoviesDomain
import MoviesTestSupport
import Testing
@testable import MoviesData

/// The callers that pause after TMDB refused (a 429, an outage) pause as `RetryAfter.pause` says:
/// TMDB's `Retry-After` when it gave one, up to the caller's cap, else the caller's back-off.
@Suite struct RetryAfterUsersTests {
    @Test(arguments: [(nil, 2), (1, 1), (30, 30), (5_000, 900)] as [(Int?, Double)])
    func theAccountOutbox(retryAfter: Int?, expected: Double) async {
        // Defaults: a back-off of 2 s doubling, at most 900 s.
        let sync = AccountSync(remote: SimulatedTMDBAccount(), storage: InMemoryAccountStorage(), sessions: InMemoryAccountSessionStore())
        #expect(await sync.backoff(attempt: 1, retryAfter: retryAfter) == expected)
    }

    @Test(arguments: [(30, 30), (3_600, 60)])
    func theRemotesRateLimitedPause(retryAfter: Int, expected: Int) async throws {
        let clock = TestClock()
        let health = RemoteHealth(now: { clock.date })  // a pause of at most 60 s
        await health.recordFailure(MoviesError(code: .remoteUnavailable, message: "Too many requests", retryAfterSeconds: retryAfter, httpStatus: 429))
        #expect(try #require(await health.gate()).retryAfterSeconds == expected)
    }
}
