import FoundationEssentials
import MoviesDomain
import Testing

@Suite struct SearchMoviesUseCaseTests {
    let queries = InMemoryMoviesQueriesRepository()

    private func run(_ repository: StubMoviesRepository, query: String = "matrix", page: Int = 1) async throws -> (origins: [Freshness.Origin], error: MoviesError?) {
        let useCase = SearchMoviesUseCase(moviesRepository: repository, queriesRepository: queries)
        var origins: [Freshness.Origin] = []
        do {
            for try await update in useCase.execute(try SearchRequest(query: try #require(MovieQuery(query)), page: page)) {
                origins.append(update.freshness.origin)
            }
            return (origins, nil)
        } catch let error as MoviesError {
            return (origins, error)
        }
    }

    @Test func cachedThenFreshSavesTheQueryOnce() async throws {
        let result = try await run(StubMoviesRepository(pages: [.page(1, origin: .cache), .page(1, origin: .network)]))
        #expect(result.origins == [.cache, .network])
        #expect(result.error == nil)
        #expect(await queries.saveCount == 1)
        #expect(await queries.recentQueries(maxCount: 5).map(\.query) == ["matrix"])
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
        #expect(await queries.recentQueries(maxCount: 5).map(\.query) == ["heat", "alien"])
    }

    @Test func passesTheRequestThrough() async throws {
        let repository = StubMoviesRepository(pages: [])
        _ = try await run(repository, query: " The  Matrix ", page: 4)
        let requests = await repository.searchRequests
        #expect(requests.map(\.page) == [4])
        #expect(requests.first?.query.query == "The Matrix")
    }

    @Test(arguments: [FetchPolicy.cacheFirst, .cacheOnly])
    func theFreshCacheProbeAnswersForPoliciesWhoseFreshHitIsFinal(policy: FetchPolicy) async throws {
        let cached = Fetched<MoviesPage>.page(1, origin: .cache)
        let repository = StubMoviesRepository(pages: [], freshCached: cached)
        let useCase = SearchMoviesUseCase(moviesRepository: repository, queriesRepository: queries)
        let request = try SearchRequest(query: try #require(MovieQuery("matrix")))
        #expect(await useCase.cachedIfFresh(request, policy: policy) == cached)
        #expect(await repository.searchRequests == [request])
        #expect(await queries.saveCount == 0)
    }

    @Test(arguments: [FetchPolicy.cacheThenNetwork, .networkOnly])
    func theFreshCacheProbeIsNilForPoliciesThatGoToTheNetwork(policy: FetchPolicy) async throws {
        let repository = StubMoviesRepository(pages: [], freshCached: .page(1, origin: .cache))
        let useCase = SearchMoviesUseCase(moviesRepository: repository, queriesRepository: queries)
        let request = try SearchRequest(query: try #require(MovieQuery("matrix")))
        #expect(await useCase.cachedIfFresh(request, policy: policy) == nil)
        #expect(await repository.searchRequests.isEmpty)
    }

    @Test func aRepositoryWithoutAFastPathAnswersNil() async throws {
        let useCase = SearchMoviesUseCase(moviesRepository: PlainMoviesRepository(), queriesRepository: queries)
        let request = try SearchRequest(query: try #require(MovieQuery("matrix")))
        #expect(await useCase.cachedIfFresh(request, policy: .cacheFirst) == nil)
        #expect(useCase.freshInMemory(request, policy: .cacheFirst) == nil)
    }

    // MARK: - freshInMemory

    @Test(arguments: [FetchPolicy.cacheFirst, .cacheOnly])
    func theInMemoryProbeAnswersWhatTheRepositoryRemembersForCachePolicies(policy: FetchPolicy) async throws {
        let remembered = RememberedFetch(fetched: .page(1, origin: .cache), revision: 7)
        let repository = StubMoviesRepository(pages: [], inMemory: remembered)
        let useCase = SearchMoviesUseCase(moviesRepository: repository, queriesRepository: queries)
        let request = try SearchRequest(query: try #require(MovieQuery("matrix")))
        let answer = try #require(useCase.freshInMemory(request, policy: policy))
        #expect(answer.fetched == remembered.fetched)
        #expect(answer.revision == 7)
        #expect(await queries.saveCount == 0)
        #expect(await repository.searchRequests.isEmpty)
    }

    @Test(arguments: [FetchPolicy.cacheThenNetwork, .networkOnly])
    func theInMemoryProbeIsNilForPoliciesThatGoToTheNetwork(policy: FetchPolicy) async throws {
        let repository = StubMoviesRepository(pages: [], inMemory: RememberedFetch(fetched: .page(1, origin: .cache), revision: 7))
        let useCase = SearchMoviesUseCase(moviesRepository: repository, queriesRepository: queries)
        let request = try SearchRequest(query: try #require(MovieQuery("matrix")))
        #expect(useCase.freshInMemory(request, policy: policy) == nil)
        #expect(useCase.freshInMemory(request, policy: .default) == nil)
    }
}

/// A repository relying on the protocol's default `cachedSearchIfFresh`.
private struct PlainMoviesRepository: MoviesRepository {
    func searchMovies(_ request: SearchRequest, policy: FetchPolicy, maxStaleSeconds: Int?) -> FetchedStream<MoviesPage> {
        FetchedStream { $0.yield(.page(1, origin: .cache)); $0.finish() }
    }

    func movieDetails(id: Int, language: String?, policy: FetchPolicy) -> FetchedStream<MovieDetails> {
        FetchedStream { $0.finish() }
    }
}
