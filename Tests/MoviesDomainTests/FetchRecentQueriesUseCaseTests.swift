import MoviesDomain
import Testing

@Suite struct FetchRecentQueriesUseCaseTests {
    @Test func newestFirstDeduplicatedAndCapped() async throws {
        let repository = InMemoryMoviesQueriesRepository(capacity: 3)
        for text in ["matrix", "alien", "THE matrix", "heat", "up", "Up"] {
            await repository.saveRecentQuery(try #require(MovieQuery(text)), for: .root)
        }
        let useCase = FetchRecentQueriesUseCase(queriesRepository: repository)
        #expect(try await useCase.execute(for: .root).map(\.query) == ["Up", "heat", "THE matrix"])
    }

    @Test func maxCountIsClamped() async throws {
        let repository = InMemoryMoviesQueriesRepository()
        let useCase = FetchRecentQueriesUseCase(queriesRepository: repository)
        _ = try await useCase.execute(for: .root, maxCount: 0)
        _ = try await useCase.execute(for: .root, maxCount: 1000)
        _ = try await useCase.execute(for: .root)
        #expect(await repository.requestedMaxCounts == [1, 100, FetchRecentQueriesUseCase.defaultMaxCount])
    }

    @Test func eachUserListsAndClearsOnlyTheirOwn() async throws {
        let repository = InMemoryMoviesQueriesRepository()
        let alice = LocalUser(uid: 1000), bob = LocalUser(uid: 1001)
        await repository.saveRecentQuery(try #require(MovieQuery("matrix")), for: alice)
        await repository.saveRecentQuery(try #require(MovieQuery("alien")), for: bob)
        let useCase = FetchRecentQueriesUseCase(queriesRepository: repository)
        #expect(try await useCase.execute(for: alice).map(\.query) == ["matrix"])
        #expect(try await useCase.execute(for: bob).map(\.query) == ["alien"])
        #expect(try await useCase.clear(for: alice) == 1)
        #expect(try await useCase.execute(for: alice).isEmpty)
        #expect(try await useCase.execute(for: bob).map(\.query) == ["alien"], "clearing is one's own")
    }
}
