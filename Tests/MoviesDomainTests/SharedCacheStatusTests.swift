import MoviesDomain
import Testing

/// Which of nginx's `X-Cache-Status` values count as answered without asking TMDB.
@Suite struct SharedCacheStatusTests {
    @Test(arguments: ["HIT", "hit", "STALE", "UPDATING"])
    func answeredFromTheSharedCache(status: String) {
        #expect(SharedCacheStatus.isHit(status))
    }

    @Test(arguments: ["MISS", "EXPIRED", "BYPASS", "REVALIDATED", "", "something-else"])
    func askedTMDB(status: String) {
        // REVALIDATED: nginx sent TMDB a conditional request (a 304 came back).
        #expect(!SharedCacheStatus.isHit(status))
    }
}
