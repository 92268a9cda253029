import MoviesData
import Testing

@Suite struct CachePolicyTests {
    @Test func defaultsFollowTheDesign() {
        let policy = CachePolicy()
        #expect(policy.freshLifetime(of: .search) == 6 * 3600)
        #expect(policy.freshLifetime(of: .movie) == 24 * 3600)
        #expect(policy.freshLifetime(of: .configuration) == 3 * 86400)
        #expect(policy.maxStale(of: .search) == 30 * 86400)
        #expect(policy.maxStale(of: .movie) == 180 * 86400)
    }

    @Test func remoteMaxAgeIsIgnoredUnlessHonoured() {
        #expect(CachePolicy().freshLifetime(of: .search, remoteMaxAge: 60) == 6 * 3600)
        let honouring = CachePolicy(honorRemoteMaxAge: true)
        #expect(honouring.freshLifetime(of: .search, remoteMaxAge: 60) == 60)
        #expect(honouring.freshLifetime(of: .search, remoteMaxAge: 86400 * 2) == 86400 * 2)
        #expect(honouring.freshLifetime(of: .search, remoteMaxAge: nil) == 6 * 3600)
    }

    @Test func configuredValuesOverrideDefaults() {
        let policy = CachePolicy(freshSeconds: [.search: 10], maxStaleSeconds: [.search: 20])
        #expect(policy.freshLifetime(of: .search) == 10)
        #expect(policy.maxStale(of: .search) == 20)
        #expect(policy.maxStale(of: .movie) == 0)
    }
}
