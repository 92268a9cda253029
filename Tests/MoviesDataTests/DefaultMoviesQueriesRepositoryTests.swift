import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing

@Suite struct DefaultMoviesQueriesRepositoryTests {
    @Test func newestFirstDeduplicatedAndCapped() async throws {
        let clock = TestClock()
        let repository = DefaultMoviesQueriesRepository(storage: InMemoryRecentQueriesStorage(capacity: 3), now: clock.now)
        for text in ["matrix", "alien", "The  MATRIX", "heat", "up"] {
            try await repository.saveRecentQuery(try #require(MovieQuery(text)), for: .root)
            clock.advance(by: 1)
        }
        let recent = try await repository.recentQueries(of: .root, maxCount: 10)
        #expect(recent.map(\.query) == ["up", "heat", "The MATRIX"])
        #expect(try await repository.recentQueries(of: .root, maxCount: 2).map(\.query) == ["up", "heat"])
    }
}
