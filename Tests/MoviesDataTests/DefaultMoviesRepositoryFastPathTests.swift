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

    // MARK: - freshSearchInMemory

    /// Reads the entry the ordinary way, so its value is remembered.
    private func readOnce(_ h: RepositoryHarness, page: Int = 1) async throws -> Fetched<MoviesPage> {
        try #require(await h.repository.cachedSearchIfFresh(try H.request(page: page)))
    }

    @Test func nothingIsInMemoryBeforeTheEntryWasEverRead() async throws {
        let h = RepositoryHarness()
        await h.seedSearch(titles: ["Cached"], ageSeconds: 60)
        #expect(h.repository.freshSearchInMemory(try H.request()) == nil)
        #expect(await h.storage.readCount == 0)
    }

    @Test func afterARegularReadTheFreshPageComesFromMemoryWithoutStorageOrRemote() async throws {
        let h = RepositoryHarness()
        await h.seedSearch(titles: ["Cached", "Also cached"], ageSeconds: 60)
        let regular = try await readOnce(h)
        let reads = await h.storage.readCount

        let remembered = try #require(h.repository.freshSearchInMemory(try H.request()))
        #expect(remembered.fetched == regular)
        #expect(remembered.fetched.titles == ["Cached", "Also cached"])
        #expect(remembered.fetched.freshness.origin == .cache)
        #expect(remembered.fetched.freshness.stale == false)
        #expect(remembered.fetched.freshness.ageSeconds == 60)
        #expect(remembered.revision == h.storage.revision)

        // The age follows the injected clock.
        h.clock.advance(by: 30)
        let later = try #require(h.repository.freshSearchInMemory(try H.request()))
        #expect(later.fetched.freshness.ageSeconds == 90)
        #expect(later.fetched.freshness.stale == false)
        #expect(later.revision == remembered.revision)

        #expect(await h.storage.readCount == reads)
        #expect(await h.remote.fetchCount == 0)
    }

    @Test func aCacheFirstStreamRemembersTheEntryToo() async throws {
        let h = RepositoryHarness()
        await h.seedSearch(titles: ["Cached"], ageSeconds: 10)
        let record = try await h.search(.cacheFirst)
        let only = try #require(record.updates.count == 1 ? record.updates.first : nil)
        let remembered = try #require(h.repository.freshSearchInMemory(try H.request()))
        #expect(remembered.fetched == only)
    }

    @Test func anyWriteForgetsUntilTheNextRead() async throws {
        let h = RepositoryHarness()
        await h.seedSearch(titles: ["Cached"], ageSeconds: 60)
        _ = try await readOnce(h)
        #expect(h.repository.freshSearchInMemory(try H.request()) != nil)

        // A save of another key.
        await h.seedSearch(titles: ["Other"], ageSeconds: 0, query: "alien")
        #expect(h.repository.freshSearchInMemory(try H.request()) == nil)
        _ = try await readOnce(h)
        #expect(h.repository.freshSearchInMemory(try H.request()) != nil)

        // A pin of an unrelated key (nothing this entry cares about, still a write).
        try await h.storage.setPinned(true, keys: [H.key("alien")])
        #expect(h.repository.freshSearchInMemory(try H.request()) == nil)
        _ = try await readOnce(h)

        // An invalidation: the entry is now stale, so not even a read brings it back.
        #expect(try await h.storage.invalidate(keyPrefixes: [H.key()], now: h.clock.date) == 1)
        #expect(h.repository.freshSearchInMemory(try H.request()) == nil)
        #expect(await h.repository.cachedSearchIfFresh(try H.request()) == nil)
        #expect(h.repository.freshSearchInMemory(try H.request()) == nil)
    }

    @Test func aPurgeForgetsTheEntry() async throws {
        let h = RepositoryHarness()
        await h.seedSearch(titles: ["Cached"], ageSeconds: 60)
        _ = try await readOnce(h)
        #expect(try await h.storage.purge(keyPrefixes: [H.key()]).entries == 1)
        #expect(h.repository.freshSearchInMemory(try H.request()) == nil)
        #expect(await h.repository.cachedSearchIfFresh(try H.request()) == nil)
        #expect(h.repository.freshSearchInMemory(try H.request()) == nil)
    }

    @Test func aRevalidatedEntryIsRememberedWithItsNewFreshness() async throws {
        let h = RepositoryHarness()
        await h.seedSearch(titles: ["Cached"], ageSeconds: 600)
        #expect(try await readOnce(h).freshness.ageSeconds == 600)
        // Same body, new fetchedAt (a 304): the remembered decoding stays, the entry must not.
        try await h.storage.revalidate(key: H.key(), fetchedAt: h.clock.date, expiresAt: h.clock.date.addingTimeInterval(3600))
        #expect(h.repository.freshSearchInMemory(try H.request()) == nil)
        #expect(try await readOnce(h).freshness.ageSeconds == 0)
        let remembered = try #require(h.repository.freshSearchInMemory(try H.request()))
        #expect(remembered.fetched.freshness.ageSeconds == 0)
        #expect(remembered.fetched.freshness.fetchedAt == h.clock.date)
    }

    @Test func anEntryThatWentStaleIsNotInMemory() async throws {
        let h = RepositoryHarness()
        // Fetched 60 s ago, fresh for 120 s: expires in 60 s.
        await h.seedSearch(titles: ["Cached"], ageSeconds: 60, freshSeconds: 120)
        _ = try await readOnce(h)
        h.clock.advance(by: 59)
        #expect(h.repository.freshSearchInMemory(try H.request())?.fetched.freshness.ageSeconds == 119)
        h.clock.advance(by: 1)
        #expect(h.repository.freshSearchInMemory(try H.request()) == nil)
        h.clock.advance(by: 100)
        #expect(h.repository.freshSearchInMemory(try H.request()) == nil)
    }

    @Test func aNegativeOrCorruptEntryIsNeverInMemory() async throws {
        let h = RepositoryHarness()
        let date = h.clock.date
        await h.storage.seed(StoredResponse(
            key: H.key(), resource: .search, body: Data(), httpStatus: 404,
            fetchedAt: date, expiresAt: date.addingTimeInterval(600)))
        #expect(await h.repository.cachedSearchIfFresh(try H.request()) == nil)
        #expect(try await h.search(.cacheFirst).error?.code == .notFound)
        #expect(h.repository.freshSearchInMemory(try H.request()) == nil)

        await h.storage.seed(StoredResponse(
            key: H.key(), resource: .search, body: Data("{not json".utf8),
            fetchedAt: date, expiresAt: date.addingTimeInterval(600)))
        #expect(await h.repository.cachedSearchIfFresh(try H.request()) == nil)
        #expect(h.repository.freshSearchInMemory(try H.request()) == nil)
    }

    @Test func aRememberedNegativeDoesNotHideBehindAnEarlierValue() async throws {
        let h = RepositoryHarness()
        await h.seedSearch(titles: ["Cached"], ageSeconds: 60)
        _ = try await readOnce(h)
        let date = h.clock.date
        await h.storage.seed(StoredResponse(
            key: H.key(), resource: .search, body: Data(), httpStatus: 404,
            fetchedAt: date, expiresAt: date.addingTimeInterval(600)))
        #expect(await h.repository.cachedSearchIfFresh(try H.request()) == nil)
        #expect(h.repository.freshSearchInMemory(try H.request()) == nil)
    }

    @Test func anotherPageOrQueryIsNotConfused() async throws {
        let h = RepositoryHarness()
        await h.seedSearch(titles: ["Cached"], ageSeconds: 60)
        _ = try await readOnce(h)
        #expect(h.repository.freshSearchInMemory(try H.request(page: 2)) == nil)
        #expect(h.repository.freshSearchInMemory(try H.request("alien")) == nil)
        #expect(h.repository.freshSearchInMemory(try SearchRequest(query: H.matrix, page: 1, language: "fr-FR")) == nil)
        #expect(h.repository.freshSearchInMemory(try H.request("MATRIX"))?.fetched.titles == ["Cached"])
    }

    @Test func anAnswerFromMemoryCountsAsAnAccessForEviction() async throws {
        let h = RepositoryHarness()
        await h.seedSearch(titles: ["Matrix"], ageSeconds: 60)
        await h.seedSearch(titles: ["Alien"], ageSeconds: 60, query: "alien")
        _ = try await readOnce(h)  // matrix read first...
        #expect(await h.repository.cachedSearchIfFresh(try H.request("alien")) != nil)  // ...then alien
        // Only the in-memory answer makes matrix the most recently used.
        #expect(h.repository.freshSearchInMemory(try H.request()) != nil)
        let budget = try #require(await h.storage.peek(H.key())).body.count
        #expect(try await h.storage.evict(toFit: Int64(budget)) == 1)
        #expect(await h.storage.keys == [H.key()])
    }
}
