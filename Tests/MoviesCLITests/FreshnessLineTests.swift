@testable import MoviesCLI
import MoviesDomain
import Testing

@Suite struct FreshnessLineTests {
    @Test func cachedWhileRefreshing() {
        #expect(FreshnessLine.describe(Fixtures.cached(age: 2 * 3_600), refreshing: true) == "cached 2 h ago · refreshing…")
    }

    @Test func cachedFinal() {
        #expect(FreshnessLine.describe(Fixtures.cached(age: 5 * 60)) == "cached 5 min ago")
    }

    @Test func cachedStale() {
        #expect(FreshnessLine.describe(Fixtures.cached(age: 8 * 3_600, stale: true)) == "cached 8 h ago · stale")
    }

    @Test func cachedWithRemoteErrorIsOffline() {
        let freshness = Fixtures.cached(age: 3 * 86_400, stale: true, remoteError: "TMDB unreachable")
        #expect(FreshnessLine.describe(freshness) == "offline — showing results cached 3 days ago")
    }

    @Test func cachedThenFailureIsOffline() {
        let line = FreshnessLine.describe(Fixtures.cached(age: 30), failure: .remoteUnavailable("timeout"))
        #expect(line == "offline — showing results cached just now")
    }

    @Test func network() {
        #expect(FreshnessLine.describe(Fixtures.network) == "fresh from TMDB")
    }

    @Test func revalidated() {
        let freshness = Freshness(origin: .revalidated, fetchedAt: Fixtures.fetchedAt, ageSeconds: 86_400 + 5, stale: false)
        #expect(FreshnessLine.describe(freshness) == "cached 1 day ago · confirmed current by TMDB")
    }
}
