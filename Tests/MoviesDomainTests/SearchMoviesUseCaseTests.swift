import FoundationEssentials
import MoviesDomain
import Testing

@Suite struct SearchMoviesUseCaseTests {
    let queries = InMemoryMoviesQueriesRepository()

    private func run(_ repository: StubMoviesRepository, query: String = "matrix", page: Int = 1) async throws -> (origins: [Freshness.Origin], error: MoviesError?) {
        let useCase = SearchMoviesUseCase(moviesRepository: repository, queriesRepository: queries)
        let request = try SearchRequest(query: try #require(MovieQuery(query)), page: page)
        let updates = FetchedUpdates<MoviesPage>()
        do {
            try await useCase.execute(request, requester: .root) { updates.emit($0) }
            return (updates.all.map(\.freshness.origin), nil)
        } catch let error as MoviesError {
            return (updates.all.map(\.freshness.origin), error)
        }
    }

    @Test func cachedThenFreshSavesTheQueryOnce() async throws {
        let result = try await run(StubMoviesRepository(pages: [.page(1, origin: .cache), .page(1, origin: .network)]))
        #expect(result.origins == [.cache, .network])
        #expect(result.error == nil)
        #expect(await queries.saveCount == 1)
        #expect(await queries.recentQueries(of: .root, maxCount: 5).map(\.query) == ["matrix"])
    }

    @Test func cachedThenErrorDeliversBothAndSavesNothing() async throws {
        let failure = MoviesError(code: .remoteUnavailable, message: "offline")
        let result = try await run(StubMoviesRepository(pages: [.page(1, origin: .cache)], failure: failure))
        #expect(result.origins == [.cache])
        #expect(result.error == failure)
        #expect(await queries.saveCount == 0)
    }

    @Test func cacheOnlyAnswersAreNotSaved() async throws {
        _ = try await run(StubMoviesRepository(pages: [.page(1, origin: .cache)]))
        #expect(await queries.saveCount == 0)
    }

    @Test func everyPageAndRevalidationSavesTheQuery() async throws {
        _ = try await run(StubMoviesRepository(pages: [.page(2, origin: .network)]), query: "alien", page: 2)
        _ = try await run(StubMoviesRepository(pages: [.page(3, origin: .revalidated)]), query: "heat", page: 3)
        #expect(await queries.saveCount == 2)
        #expect(await queries.recentQueries(of: .root, maxCount: 5).map(\.query) == ["heat", "alien"])
    }

    @Test func passesTheRequestThrough() async throws {
        let repository = StubMoviesRepository(pages: [])
        _ = try await run(repository, query: " The  Matrix ", page: 4)
        let requests = await repository.searchRequests
        #expect(requests.map(\.page) == [4])
        #expect(requests.first?.query.query == "The Matrix")
    }

    @Test func theQueryGoesToTheRequestersHistoryOnlyAndNowhereWithoutOne() async throws {
        let useCase = SearchMoviesUseCase(moviesRepository: StubMoviesRepository(pages: [.page(1, origin: .network)]), queriesRepository: queries)
        let request = try SearchRequest(query: try #require(MovieQuery("matrix")))
        try await useCase.execute(request, requester: LocalUser(uid: 1000)) { _ in }
        #expect(await queries.recentQueries(of: LocalUser(uid: 1000), maxCount: 5).map(\.query) == ["matrix"])
        #expect(await queries.recentQueries(of: .root, maxCount: 5).isEmpty, "another user's search is not root's")
        try await useCase.execute(request, requester: nil) { _ in }
        #expect(await queries.saveCount == 1, "a caller without credentials has no history")
    }

    @Test func theLookupIsTheRepositorysAndSavesNoQuery() async throws {
        let cached = CachedAnswer(json: Array(#"{"page":1}"#.utf8), fetchedAt: Date(timeIntervalSince1970: 1000), expiresAt: Date(timeIntervalSince1970: 2000))
        let repository = StubMoviesRepository(pages: [], cached: cached)
        let useCase = SearchMoviesUseCase(moviesRepository: repository, queriesRepository: queries)
        let request = try SearchRequest(query: try #require(MovieQuery("matrix")))
        #expect(await useCase.lookup(request).answer == cached)
        #expect(await repository.searchRequests == [request])
        #expect(await queries.saveCount == 0, "only a network answer saves the query")
    }

    @Test func aPlannedSearchSavesTheQueryOnceTMDBAnswers() async throws {
        let repository = StubMoviesRepository(pages: [.page(1, origin: .network)])
        let useCase = SearchMoviesUseCase(moviesRepository: repository, queriesRepository: queries)
        let request = try SearchRequest(query: try #require(MovieQuery("matrix")))
        let plan = FetchPlan.make(policy: .cacheThenNetwork, streams: true, entry: .missing)
        try await useCase.execute(request, plan: plan, requester: .root) { _ in }
        #expect(await queries.recentQueries(of: .root, maxCount: 5).map(\.query) == ["matrix"])
    }
}
