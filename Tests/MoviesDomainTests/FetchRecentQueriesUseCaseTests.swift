import MoviesDomain
import Testing

@Suite struct FetchRecentQueriesUseCaseTests {
    @Test func newestFirstDeduplicatedAndCapped() async throws {
        let repository = InMemoryMoviesQueriesRepository(capacity: 3)
        for text in ["matrix", "alien", "THE matrix", "heat", "up", "Up"] {
            await repository.saveRecentQuery(try #require(MovieQuery(text)))
        }
        let useCase = FetchRecentQueriesUseCase(queriesRepository: repository)
        #expect(try await useCase.execute().map(\.query) == ["Up", "heat", "THE matrix"])
    }

    @Test func maxCountIsClamped() async throws {
        let repository = InMemoryMoviesQueriesRepository()
        let useCase = FetchRecentQueriesUseCase(queriesRepository: repository)
        _ = try await useCase.execute(maxCount: 0)
        _ = try await useCase.execute(maxCount: 1000)
        _ = try await useCase.execute()
        #expect(await repository.requestedMaxCounts == [1, 100, FetchRecentQueriesUseCase.defaultMaxCount])
    }
}
