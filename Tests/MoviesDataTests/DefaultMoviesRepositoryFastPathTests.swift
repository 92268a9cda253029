import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing

/// `cachedSearchIfFresh`: exactly the `cacheFirst` stream's update on a fresh hit, `nil` otherwise.
@Suite struct DefaultMoviesRepositoryFastPathTests {
    typealias H = RepositoryHarness

    @Test func aFreshHitIsExactlyTheCacheFirstStreamsOnlyUpdate() async throws {
        let h = RepositoryHarness()
        await h.seedSearch(titles: ["Cached"], ageSeconds: 60, etag: "\"v1\"")
        let fast = try #require(await h.repository.cachedSearchIfFresh(try H.request()))
        let record = try await h.search(.cacheFirst)
        #expect(record.error == nil)
        #expect(record.updates == [fast])
        #expect(fast.titles == ["Cached"])
        #expect(fast.freshness.origin == .cache)
        #expect(fast.freshness.ageSeconds == 60)
        #expect(fast.freshness.stale == false)
        #expect(await h.remote.fetchCount == 0)
    }

    @Test func aFreshHitIsReadThroughStorageSoTheAccessIsRecorded() async throws {
        let h = RepositoryHarness()
        await h.seedSearch(titles: ["Cached"], ageSeconds: 60)
        let before = await h.storage.readCount
        _ = try #require(await h.repository.cachedSearchIfFresh(try H.request()))
        #expect(await h.storage.readCount == before + 1)
    }

    @Test func aStaleEntryDoesNotTakeTheFastPath() async throws {
        let h = RepositoryHarness()
        await h.seedSearch(titles: ["Cached"], ageSeconds: 7 * 3600)
        #expect(await h.repository.cachedSearchIfFresh(try H.request()) == nil)
        await h.seedSearch(titles: ["Cached"], ageSeconds: 60, freshSeconds: 30)
        #expect(await h.repository.cachedSearchIfFresh(try H.request()) == nil)
    }

    @Test func aMissANegativeEntryACorruptBodyOrAStorageFailureIsNil() async throws {
        let h = RepositoryHarness()
        #expect(await h.repository.cachedSearchIfFresh(try H.request()) == nil)

        let date = h.clock.date
        await h.storage.seed(StoredResponse(
            key: H.key(), resource: .search, body: Data(), httpStatus: 404,
            fetchedAt: date, expiresAt: date.addingTimeInterval(600)))
        #expect(await h.repository.cachedSearchIfFresh(try H.request()) == nil)

        await h.storage.seed(StoredResponse(
            key: H.key(), resource: .search, body: Data("{not json".utf8),
            fetchedAt: date, expiresAt: date.addingTimeInterval(600)))
        #expect(await h.repository.cachedSearchIfFresh(try H.request()) == nil)

        await h.seedSearch(titles: ["Cached"], ageSeconds: 60)
        await h.storage.setFailure(MoviesError(code: .storage, message: "disk gone"))
        #expect(await h.repository.cachedSearchIfFresh(try H.request()) == nil)
        #expect(await h.remote.fetchCount == 0)
    }

    @Test func anotherPageOrLanguageIsAnotherKey() async throws {
        let h = RepositoryHarness()
        await h.seedSearch(titles: ["Cached"], ageSeconds: 60)
        #expect(await h.repository.cachedSearchIfFresh(try H.request(page: 2)) == nil)
        let french = try SearchRequest(query: H.matrix, page: 1, language: "fr-FR")
        #expect(await h.repository.cachedSearchIfFresh(french) == nil)
    }
}
