import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing

@Suite struct DefaultPosterImagesRepositoryTests {
    let clock = TestClock()
    let storage = InMemoryResponseStorage()
    let remote = ScriptedMoviesRemote()
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3])
    static let imageRequest = RemoteRequest.image(baseURL: "https://img.example/t/p/", size: "w342", path: "/abc.jpg")

    private func repository() -> DefaultPosterImagesRepository {
        DefaultPosterImagesRepository(storage: storage, remote: remote, health: RemoteHealth(now: clock.now), now: clock.now)
    }

    private func scriptConfigurationAndImage() async {
        await remote.script(.configuration, .success(TMDBSampleBodies.ok(TMDBSampleBodies.configuration(secureBaseURL: "https://img.example/t/p/"))))
        await remote.script(Self.imageRequest, .success(RemoteResponse(httpStatus: 200, body: Self.jpeg, contentType: "image/jpeg")))
    }

    @Test func fetchesFromTheConfiguredBaseURLAndStoresBytes() async throws {
        await scriptConfigurationAndImage()
        let record = await FetchedRecord { try await repository().posterImage(path: "/abc.jpg", size: .w342, policy: .cacheFirst, emit: $0) }
        #expect(record.error == nil)
        #expect(record.origins == [.network])
        #expect(record.updates.first?.value == PosterImage(bytes: Self.jpeg, mimeType: "image/jpeg", size: .w342))
        #expect(await remote.requests == [.configuration, Self.imageRequest])
        let stored = try #require(await storage.peek(CacheKey.poster(path: "/abc.jpg", size: .w342)))
        #expect(stored.body == Self.jpeg)
        #expect(stored.contentType == "image/jpeg")
        #expect(await storage.peek(CacheKey.configuration) != nil)
    }

    @Test(arguments: FetchPolicy.allCases)
    func aCachedPosterNeverTouchesTheNetwork(policy: FetchPolicy) async throws {
        await scriptConfigurationAndImage()
        _ = await FetchedRecord { try await repository().posterImage(path: "/abc.jpg", size: .w342, policy: .cacheFirst, emit: $0) }
        #expect(await remote.fetchCount == 2)
        clock.advance(by: 400 * 86400)
        let record = await FetchedRecord { try await repository().posterImage(path: "/abc.jpg", size: .w342, policy: policy, emit: $0) }
        #expect(record.origins == [.cache])
        #expect(record.updates.first?.value.bytes == Self.jpeg)
        #expect(await remote.fetchCount == 2)
    }

    @Test func configurationIsReusedWhileFresh() async throws {
        await scriptConfigurationAndImage()
        let other = RemoteRequest.image(baseURL: "https://img.example/t/p/", size: "w92", path: "/abc.jpg")
        await remote.script(other, .success(RemoteResponse(httpStatus: 200, body: Self.jpeg, contentType: "image/jpeg")))
        let repository = repository()
        _ = await FetchedRecord { try await repository.posterImage(path: "/abc.jpg", size: .w342, policy: .cacheFirst, emit: $0) }
        let record = await FetchedRecord { try await repository.posterImage(path: "/abc.jpg", size: .w92, policy: .cacheFirst, emit: $0) }
        #expect(record.error == nil)
        #expect(await remote.requests == [.configuration, Self.imageRequest, other])
    }

    @Test func cacheOnlyMissIsNotCached() async {
        let record = await FetchedRecord { try await repository().posterImage(path: "/abc.jpg", size: .w342, policy: .cacheOnly, emit: $0) }
        #expect(record.error?.code == .notCached)
        #expect(await remote.fetchCount == 0)
    }

    @Test func failingConfigurationFailsThePoster() async {
        await remote.script(.configuration, .failure(MoviesError(code: .remoteUnavailable, message: "down")))
        let record = await FetchedRecord { try await repository().posterImage(path: "/abc.jpg", size: .w342, policy: .cacheFirst, emit: $0) }
        #expect(record.updates.isEmpty)
        #expect(record.error?.code == .remoteUnavailable)
        #expect(await storage.keys.isEmpty)
    }

    /// Offline, a size never stored is answered with a stored size of the same poster (what a
    /// watchlist's refresh keeps, w342): the nearest larger one, else the largest smaller one; the
    /// freshness says TMDB could not be asked.
    @Test(arguments: [(PosterSize.original, PosterSize.w342), (.w185, .w342), (.w92, .w342)])
    func offlineAnotherStoredSizeStandsIn(asked: PosterSize, served: PosterSize) async throws {
        await scriptConfigurationAndImage()
        _ = await FetchedRecord { try await repository().posterImage(path: "/abc.jpg", size: .w342, policy: .cacheFirst, emit: $0) }
        await remote.script(RemoteRequest.image(baseURL: "https://img.example/t/p/", size: asked.rawValue, path: "/abc.jpg"),
                            .failure(MoviesError(code: .remoteUnavailable, message: "TMDB is unreachable")))
        let record = await FetchedRecord { try await repository().posterImage(path: "/abc.jpg", size: asked, policy: .cacheFirst, emit: $0) }
        #expect(record.error == nil)
        #expect(record.updates.first?.value == PosterImage(bytes: Self.jpeg, mimeType: "image/jpeg", size: served))
        #expect(record.updates.first?.freshness.origin == .cache)
        #expect(record.updates.first?.freshness.remoteError == "TMDB is unreachable")
    }

    /// Of several stored sizes, the nearest larger one stands in, else the largest smaller one.
    @Test func theNearestLargerStoredSizeStandsInElseTheLargestSmaller() async throws {
        await remote.script(.configuration, .success(TMDBSampleBodies.ok(TMDBSampleBodies.configuration(secureBaseURL: "https://img.example/t/p/"))))
        for size in [PosterSize.w92, .w185, .w780] {
            await remote.script(RemoteRequest.image(baseURL: "https://img.example/t/p/", size: size.rawValue, path: "/abc.jpg"),
                                .success(RemoteResponse(httpStatus: 200, body: Self.jpeg, contentType: "image/jpeg")))
            _ = await FetchedRecord { try await repository().posterImage(path: "/abc.jpg", size: size, policy: .cacheFirst, emit: $0) }
        }
        for (asked, served) in [(PosterSize.w154, PosterSize.w185), (.w342, .w780), (.w500, .w780), (.original, .w780)] {
            let record = await FetchedRecord { try await repository().posterImage(path: "/abc.jpg", size: asked, policy: .cacheOnly, emit: $0) }
            #expect(record.updates.first?.value.size == served, "\(asked)")
        }
    }

    /// With the cache only, the same: a stored size rather than nothing.
    @Test func cacheOnlyAnotherStoredSizeStandsIn() async throws {
        await scriptConfigurationAndImage()
        _ = await FetchedRecord { try await repository().posterImage(path: "/abc.jpg", size: .w342, policy: .cacheFirst, emit: $0) }
        let record = await FetchedRecord { try await repository().posterImage(path: "/abc.jpg", size: .w500, policy: .cacheOnly, emit: $0) }
        #expect(record.updates.first?.value.size == .w342)
        #expect(record.updates.first?.freshness.remoteError == nil, "TMDB was not asked: no failure of it to report")
        #expect(await remote.fetchCount == 2)
    }

    /// TMDB's "no such poster" is not covered up by another size, nor is a poster never stored.
    @Test func notFoundAndNothingStoredStillFail() async throws {
        await scriptConfigurationAndImage()
        _ = await FetchedRecord { try await repository().posterImage(path: "/abc.jpg", size: .w342, policy: .cacheFirst, emit: $0) }
        await remote.script(RemoteRequest.image(baseURL: "https://img.example/t/p/", size: "w500", path: "/abc.jpg"),
                            .failure(MoviesError(code: .notFound, message: "no poster", httpStatus: 404)))
        let notFound = await FetchedRecord { try await repository().posterImage(path: "/abc.jpg", size: .w500, policy: .cacheFirst, emit: $0) }
        #expect(notFound.error?.code == .notFound)
        let other = await FetchedRecord { try await repository().posterImage(path: "/other.jpg", size: .w342, policy: .cacheOnly, emit: $0) }
        #expect(other.error?.code == .notCached)
    }
}
