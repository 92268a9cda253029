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
}
