import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing

/// Each policy's exact sequence of updates: cache fresh / stale / missing × network ok / failing.
@Suite struct DefaultMoviesRepositoryTests {
    typealias H = RepositoryHarness

    private func harness(network ok: Bool) async -> RepositoryHarness {
        let harness = RepositoryHarness()
        let answer: Result<RemoteResponse, MoviesError> = ok
            ? .success(TMDBSampleBodies.ok(TMDBSampleBodies.searchPage(titles: ["Fresh"]), etag: "new"))
            : .failure(H.offline)
        await harness.remote.script(H.remoteRequest(), answer)
        return harness
    }

    @Test func cacheThenNetworkFreshCacheThenFreshNetwork() async throws {
        let h = await harness(network: true)
        await h.seedSearch(titles: ["Cached"], ageSeconds: 60)
        let record = try await h.search(.cacheThenNetwork)
        #expect(record.origins == [.cache, .network])
        #expect(record.updates.map(\.titles) == [["Cached"], ["Fresh"]])
        #expect(record.updates[0].freshness.ageSeconds == 60)
        #expect(record.updates[0].freshness.stale == false)
        #expect(record.updates[1].freshness.ageSeconds == 0)
        #expect(record.error == nil)
        let stored = await h.storage.peek(H.key())
        #expect(stored?.fetchedAt == h.clock.date)
        #expect(stored?.etag == "new")
    }

    @Test func cacheThenNetworkStaleCacheIsMarkedStale() async throws {
        let h = await harness(network: true)
        await h.seedSearch(titles: ["Cached"], ageSeconds: 7 * 3600)
        let record = try await h.search(.cacheThenNetwork)
        #expect(record.origins == [.cache, .network])
        #expect(record.updates[0].freshness.stale == true)
        #expect(record.updates[1].freshness.stale == false)
    }

    @Test func cacheThenNetworkMissingCacheEmitsOnlyNetwork() async throws {
        let h = await harness(network: true)
        let record = try await h.search(.cacheThenNetwork)
        #expect(record.origins == [.network])
        #expect(record.error == nil)
    }

    @Test func cacheThenNetworkFailureEndsWithErrorAfterCachedValue() async throws {
        let h = await harness(network: false)
        await h.seedSearch(titles: ["Cached"], ageSeconds: 60)
        let before = await h.storage.peek(H.key())
        let record = try await h.search(.cacheThenNetwork)
        #expect(record.origins == [.cache])
        #expect(record.error?.code == .remoteUnavailable)
        #expect(await h.storage.peek(H.key()) == before)
    }

    @Test func cacheThenNetworkMissingAndFailingThrowsRemoteError() async throws {
        let h = await harness(network: false)
        let record = try await h.search(.cacheThenNetwork)
        #expect(record.updates.isEmpty)
        #expect(record.error?.code == .remoteUnavailable)
    }

    @Test func cacheFirstFreshCacheNeverTouchesNetwork() async throws {
        let h = await harness(network: true)
        await h.seedSearch(titles: ["Cached"], ageSeconds: 60)
        let record = try await h.search(.cacheFirst)
        #expect(record.origins == [.cache])
        #expect(record.error == nil)
        #expect(await h.remote.fetchCount == 0)
    }

    @Test func cacheFirstStaleCacheFetchesAndEmitsOnlyFresh() async throws {
        let h = await harness(network: true)
        await h.seedSearch(titles: ["Cached"], ageSeconds: 7 * 3600)
        let record = try await h.search(.cacheFirst)
        #expect(record.origins == [.network])
        #expect(record.updates.map(\.titles) == [["Fresh"]])
    }

    @Test func cacheFirstStaleCacheAndFailureServesStaleWithReason() async throws {
        let h = await harness(network: false)
        await h.seedSearch(titles: ["Cached"], ageSeconds: 7 * 3600, etag: "old")
        let before = await h.storage.peek(H.key())
        let record = try await h.search(.cacheFirst)
        #expect(record.origins == [.cache])
        #expect(record.updates.first?.freshness.stale == true)
        #expect(record.updates.first?.freshness.remoteError == H.offline.message)
        #expect(record.error == nil)
        #expect(await h.storage.peek(H.key()) == before)
    }

    @Test func cacheFirstMissingAndFailingThrows() async throws {
        let h = await harness(network: false)
        let record = try await h.search(.cacheFirst)
        #expect(record.updates.isEmpty)
        #expect(record.error?.code == .remoteUnavailable)
    }

    @Test func networkOnlyIgnoresFreshCacheButStores() async throws {
        let h = await harness(network: true)
        await h.seedSearch(titles: ["Cached"], ageSeconds: 60)
        let record = try await h.search(.networkOnly)
        #expect(record.origins == [.network])
        #expect(await h.remote.fetchCount == 1)
        #expect(await h.storage.peek(H.key())?.etag == "new")
    }

    @Test func networkOnlyFailureThrowsWithoutCachedValue() async throws {
        let h = await harness(network: false)
        await h.seedSearch(titles: ["Cached"], ageSeconds: 60)
        let record = try await h.search(.networkOnly)
        #expect(record.updates.isEmpty)
        #expect(record.error?.code == .remoteUnavailable)
    }

    @Test func cacheOnlyServesAnythingCachedWithoutNetwork() async throws {
        let h = await harness(network: true)
        await h.seedSearch(titles: ["Ancient"], ageSeconds: 400 * 86400)
        let record = try await h.search(.cacheOnly)
        #expect(record.origins == [.cache])
        #expect(record.updates.first?.freshness.stale == true)
        #expect(await h.remote.fetchCount == 0)
    }

    @Test func cacheOnlyMissingIsNotCached() async throws {
        let h = await harness(network: true)
        let record = try await h.search(.cacheOnly)
        #expect(record.updates.isEmpty)
        #expect(record.error?.code == .notCached)
        #expect(await h.remote.fetchCount == 0)
    }

    @Test func entriesBeyondMaxStaleAreNotServed() async throws {
        let h = await harness(network: false)
        // Fresh for 6 h, max-stale 30 d: 31 days old is out of bounds.
        await h.seedSearch(titles: ["Cached"], ageSeconds: 31 * 86400)
        let thenNetwork = try await h.search(.cacheThenNetwork)
        #expect(thenNetwork.updates.isEmpty)
        #expect(thenNetwork.error?.code == .remoteUnavailable)
        let first = try await h.search(.cacheFirst)
        #expect(first.updates.isEmpty)
        #expect(first.error?.code == .remoteUnavailable)
    }

    @Test func maxStaleOverrideWidensAndNarrowsTheBound() async throws {
        let h = await harness(network: false)
        await h.seedSearch(titles: ["Cached"], ageSeconds: 31 * 86400)
        let widened = try await h.search(.cacheFirst, maxStale: 60 * 86400)
        #expect(widened.origins == [.cache])
        #expect(widened.error == nil)

        let other = await harness(network: false)
        await other.seedSearch(titles: ["Cached"], ageSeconds: 7 * 3600)
        let narrowed = try await other.search(.cacheThenNetwork, maxStale: 0)
        #expect(narrowed.updates.isEmpty)
        #expect(narrowed.error?.code == .remoteUnavailable)
    }

    @Test func movieDetailsCachedThenFresh() async throws {
        let h = RepositoryHarness()
        await h.remote.script(.movie(id: 603, language: "en-US"), .success(TMDBSampleBodies.ok(TMDBSampleBodies.movie(id: 603, title: "The Matrix"))))
        let record = await FetchedRecord { try await h.repository.movieDetails(id: 603, language: "en-US", policy: .cacheThenNetwork, emit: $0) }
        #expect(record.origins == [.network])
        #expect(record.updates.first?.value.title == "The Matrix")
        #expect(record.updates.first?.value.homepage == nil)
        let again = await FetchedRecord { try await h.repository.movieDetails(id: 603, language: "en-US", policy: .cacheThenNetwork, emit: $0) }
        #expect(again.origins == [.cache, .network])
        #expect(await h.storage.peek(CacheKey.movie(id: 603, language: "en-US")) != nil)
    }
}
