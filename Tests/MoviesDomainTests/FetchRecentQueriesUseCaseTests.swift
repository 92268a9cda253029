import MoviesDomain
import MoviesTestSupport
import Testing

@Suite struct FetchRecentQueriesUseCaseTests {
    @Test func newestFirstDeduplicatedAndCapped() async throws {
        let repository = InMemoryMoviesQueriesRepository(capacity: 3)
        for text in ["matrix", "alien", "THE matrix", "heat", "up", "Up"] {
            await repository.saveRecentQuery(try #require(MovieQuery(text)), for: .root)
        }
        let useCase = FetchRecentQueriesUseCase(queriesRepository: repository)
        #expect(try await useCase.execute(in: TestCaller.root.scope(.own)).map(\.query) == ["Up", "heat", "THE matrix"])
    }

    @Test func maxCountIsClamped() async throws {
        let repository = InMemoryMoviesQueriesRepository()
        let useCase = FetchRecentQueriesUseCase(queriesRepository: repository)
        _ = try await useCase.execute(in: TestCaller.root.scope(.own), maxCount: 0)
        _ = try await useCase.execute(in: TestCaller.root.scope(.own), maxCount: 1000)
        _ = try await useCase.execute(in: TestCaller.root.scope(.own))
        #expect(await repository.requestedMaxCounts == [1, 100, FetchRecentQueriesUseCase.defaultMaxCount])
    }

    @Test func eachUserListsAndClearsOnlyTheirOwn() async throws {
        let repository = InMemoryMoviesQueriesRepository()
        let alice = try TestCaller(uid: 1000).scope(.own), bob = try TestCaller(uid: 1001).scope(.own)
        await repository.saveRecentQuery(try #require(MovieQuery("matrix")), for: LocalUser(uid: 1000))
        await repository.saveRecentQuery(try #require(MovieQuery("alien")), for: LocalUser(uid: 1001))
        let useCase = FetchRecentQueriesUseCase(queriesRepository: repository)
        #expect(try await useCase.execute(in: alice).map(\.query) == ["matrix"])
        #expect(try await useCase.execute(in: bob).map(\.query) == ["alien"])
        #expect(try await useCase.clear(in: alice) == 1)
        #expect(try await useCase.execute(in: alice).isEmpty)
        #expect(try await useCase.execute(in: bob).map(\.query) == ["alien"], "clearing is one's own")
    }

    @Test func aCallerWithoutCredentialsHasNoneAndSavesNothing() async throws {
        let repository = InMemoryMoviesQueriesRepository()
        await repository.saveRecentQuery(try #require(MovieQuery("matrix")), for: .root)
        let useCase = FetchRecentQueriesUseCase(queriesRepository: repository)
        let nobody = try TestCaller.nobody(.own)
        try await useCase.save(try #require(MovieQuery("alien")), in: nobody)
        #expect(try await useCase.execute(in: nobody).isEmpty)
        #expect(try await useCase.clear(in: nobody) == 0)
        #expect(try await useCase.execute(in: TestCaller.root.scope(.own)).map(\.query) == ["matrix"])
    }
}
