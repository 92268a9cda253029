import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing

/// Negative caching, revalidation, validation of bodies, remote max-age, eviction and offline gating.
@Suite struct DefaultMoviesRepositoryCachingTests {
    typealias H = RepositoryHarness

    private func movie(_ h: H, id: Int = 42, policy: FetchPolicy = .cacheThenNetwork) async -> FetchedRecord<MovieDetails> {
        await FetchedRecord { try await h.repository.movieDetails(id: id, language: nil, policy: policy, emit: $0) }
    }

    @Test(arguments: [34, 6])
    func authoritativeNotFoundIsCachedForTheNegativeTTL(tmdbCode: Int) async {
        let h = RepositoryHarness(policy: CachePolicy(negativeSeconds: 600))
        let notFound = MoviesError(code: .notFound, message: "not found", httpStatus: 404, tmdbCode: tmdbCode)
        await h.remote.script(.movie(id: 42, language: nil), .failure(notFound))
        let first = await movie(h)
        #expect(first.error?.code == .notFound)
        #expect(await h.storage.peek(CacheKey.movie(id: 42, language: nil))?.httpStatus == 404)

        let second = await movie(h)
        #expect(second.error?.code == .notFound)
        #expect(second.error?.movieID == 42)
        #expect(await h.remote.fetchCount == 1)

        h.clock.advance(by: 601)
        _ = await movie(h)
        #expect(await h.remote.fetchCount == 2)
    }

    @Test(arguments: [
        MoviesError(code: .remoteUnavailable, message: "server error", httpStatus: 500),
        MoviesError(code: .remoteRejected, message: "invalid key", httpStatus: 401, tmdbCode: 7),
        MoviesError(code: .notFound, message: "no route", httpStatus: 404),
    ])
    func otherErrorsAreNeverCached(error: MoviesError) async {
        let h = RepositoryHarness()
        await h.remote.script(.movie(id: 42, language: nil), .failure(error))
        let record = await movie(h)
        #expect(record.error?.code == error.code)
        #expect(await h.storage.peek(CacheKey.movie(id: 42, language: nil)) == nil)
        #expect(await h.storage.saveCount == 0)
    }

    @Test func notModifiedRevalidatesAndExtendsExpiry() async throws {
        let h = RepositoryHarness()
        await h.seedSearch(titles: ["Cached"], ageSeconds: 7 * 3600, etag: "\"v1\"")
        await h.remote.script(H.remoteRequest(), .success(TMDBSampleBodies.notModified(etag: "\"v1\"")))
        let record = try await h.search(.cacheThenNetwork)
        #expect(record.origins == [.cache, .revalidated])
        #expect(record.updates.map(\.titles) == [["Cached"], ["Cached"]])
        #expect(record.updates[1].freshness.stale == false)
        #expect(record.updates[1].freshness.fetchedAt == h.clock.date)
        #expect(await h.remote.etags == ["\"v1\""])
        let stored = try #require(await h.storage.peek(H.key()))
        #expect(stored.expiresAt == h.clock.date.addingTimeInterval(6 * 3600))
        #expect(stored.body == TMDBSampleBodies.searchPage(titles: ["Cached"]))
    }

    @Test func malformedRemoteBodyIsNeverStored() async throws {
        let h = RepositoryHarness()
        await h.remote.script(H.remoteRequest(), .success(TMDBSampleBodies.ok(Data("<html>oops</html>".utf8))))
        let record = try await h.search(.cacheThenNetwork)
        #expect(record.updates.isEmpty)
        #expect(record.error?.code == .invalidResponse)
        #expect(record.error?.message == "TMDB sent a search page that could not be decoded; nothing was cached.")
        #expect(await h.storage.peek(H.key()) == nil)
    }

    /// A body that does not decode is recorded as the remote's other undecodable bodies are: it
    /// says nothing about reachability, so TMDB is not reported online for it (nor offline).
    @Test func aMalformedRemoteBodyIsNoSignOfLife() async throws {
        let h = RepositoryHarness()
        await h.remote.script(H.remoteRequest(), .success(TMDBSampleBodies.ok(Data(#"{"title":"no results"}"#.utf8))))
        for _ in 1...3 {
            let record = try await h.search(.networkOnly)
            #expect(record.error?.code == .invalidResponse)
        }
        #expect(await h.remote.fetchCount == 3)
        #expect(await h.health.remoteStatus() == RemoteStatus(state: .unknown, credential: .configured))
        #expect(await h.storage.peek(H.key()) == nil)
        #expect(h.events.events.contains { $0.name == "remote.online" } == false)
    }

    @Test func corruptStoredBodyIsAMiss() async throws {
        let h = RepositoryHarness()
        await h.storage.seed(StoredResponse(
            key: H.key(), resource: .search, body: Data("{\"page\":".utf8),
            fetchedAt: h.clock.date, expiresAt: h.clock.date.addingTimeInterval(3600), etag: "bad"))
        await h.remote.script(H.remoteRequest(), .success(TMDBSampleBodies.ok(TMDBSampleBodies.searchPage(titles: ["Fresh"]))))
        let cacheOnly = try await h.search(.cacheOnly)
        #expect(cacheOnly.error?.code == .notCached)
        let record = try await h.search(.cacheFirst)
        #expect(record.origins == [.network])
        #expect(await h.remote.etags == [nil])
        #expect(record.updates.map(\.titles) == [["Fresh"]])
    }

    @Test func remoteMaxAgeSetsExpiryWhenHonoured() async throws {
        let h = RepositoryHarness(policy: CachePolicy(honorRemoteMaxAge: true))
        await h.remote.script(H.remoteRequest(), .success(TMDBSampleBodies.ok(TMDBSampleBodies.searchPage(titles: ["A"]), maxAge: 60)))
        _ = try await h.search(.networkOnly)
        #expect(await h.storage.peek(H.key())?.expiresAt == h.clock.date.addingTimeInterval(60))
    }

    @Test func anAnswerASharedCacheHeldIsAsOldAsItsAgeSays() async throws {
        let h = RepositoryHarness()
        var held = TMDBSampleBodies.ok(TMDBSampleBodies.searchPage(titles: ["A"]))
        held.age = 3600
        held.cacheStatus = "HIT"
        held.via = "1.1 tmdb-cache (nginx)"
        await h.remote.script(H.remoteRequest(), .success(held))
        let record = try await h.search(.networkOnly)
        let entry = try #require(await h.storage.peek(H.key()))
        // Held for an hour by the shared cache: fetched an hour ago, fresh for 5 h more, not 6.
        #expect(entry.fetchedAt == h.clock.date.addingTimeInterval(-3600))
        #expect(entry.expiresAt == h.clock.date.addingTimeInterval(5 * 3600))
        #expect(record.updates.last?.freshness.ageSeconds == 3600)
        let shared = try #require(await h.health.remoteStatus().sharedCache)
        #expect(shared == SharedCacheStatus(lastStatus: "HIT", via: "1.1 tmdb-cache (nginx)", hits: 1, misses: 0))
    }

    @Test func anAnswerOlderThanItsLifetimeArrivesStale() async throws {
        let h = RepositoryHarness()
        var held = TMDBSampleBodies.ok(TMDBSampleBodies.searchPage(titles: ["A"]))
        held.age = 30 * 86_400
        held.cacheStatus = "STALE"
        await h.remote.script(H.remoteRequest(), .success(held))
        _ = try await h.search(.networkOnly)
        let entry = try #require(await h.storage.peek(H.key()))
        #expect(entry.expiresAt == h.clock.date, "no fresher than its lifetime allows, never fresh into the future")
    }

    @Test func byteBudgetIsEnforcedEveryNWrites() async throws {
        let h = RepositoryHarness(policy: CachePolicy(byteBudget: 10), evictionInterval: 2)
        await h.remote.setHandler { request, _ in
            guard case .search(let query, _, _, _, _) = request else { throw H.offline }
            return TMDBSampleBodies.ok(TMDBSampleBodies.searchPage(titles: [query]))
        }
        _ = try await h.search(.networkOnly, query: "one")
        #expect(await h.storage.evictCount == 0)
        _ = try await h.search(.networkOnly, query: "two")
        #expect(await h.storage.evictCount == 1)
        #expect(await h.storage.keys.count <= 1)
        // The journal says so once, at info.
        let evicted = h.events.events.filter { $0.name == "cache.evicted" }
        #expect(evicted.count == 1)
        #expect(evicted.first?.severity == .info)
        #expect(evicted.first?.message.contains("10-byte budget") == true)
    }

    @Test func offlineAfterThreeFailuresPausesBackgroundWorkAndUsersWhileExplicitCommandsTryAtOnce() async throws {
        let h = RepositoryHarness()
        for _ in 0..<4 { await h.remote.script(H.remoteRequest(), .failure(H.offline)) }
        await h.remote.script(H.remoteRequest(), .success(TMDBSampleBodies.ok(TMDBSampleBodies.searchPage(titles: ["Back"]))))
        for _ in 0..<3 { _ = try await h.search(.networkOnly) }
        #expect(await h.remote.fetchCount == 3)
        await h.seedSearch(titles: ["Cached"], ageSeconds: 7 * 3600)

        // Background work honours the pause: no request.
        let background = try await RemoteDemand.$current.withValue(.background) { try await h.search(.cacheThenNetwork) }
        #expect(await h.remote.fetchCount == 3)
        #expect(background.origins == [.cache])
        #expect(background.error?.code == .remoteUnavailable)
        #expect(background.error?.retryAfterSeconds == 5)
        #expect(await h.health.remoteStatus().state == .offline)

        // A user gets the cache at once and asks the probe to check TMDB; no request for the call.
        let user = try await h.search(.cacheThenNetwork)
        #expect(await h.remote.fetchCount == 3)
        #expect(user.origins == [.cache])
        #expect(user.error?.code == .remoteUnavailable)
        #expect(user.error?.retryAfterSeconds == 5)
        // An explicit command (`--fresh`) asks TMDB at once (still failing here).
        _ = try? await h.search(.networkOnly)
        #expect(await h.remote.fetchCount == 4)

        // TMDB is back: `--fresh` finds it at once, and every caller after it.
        let fresh = try await h.search(.networkOnly)
        #expect(fresh.origins == [.network])
        #expect(await h.health.remoteStatus().state == .online)
        let recovered = try await h.search(.cacheFirst)
        #expect(recovered.origins == [.cache], "the fresh page just stored")
    }

    @Test func authRejectionThroughTheRepositoryIsNeverOffline() async throws {
        let h = RepositoryHarness()
        await h.remote.script(H.remoteRequest(), .failure(MoviesError(code: .remoteRejected, message: "Invalid API key", httpStatus: 401, tmdbCode: 7)))
        for _ in 0..<3 {
            let record = try await h.search(.networkOnly)
            #expect(record.error?.code == .remoteRejected)
            h.clock.advance(by: 600)
        }
        #expect(await h.health.remoteStatus().state == .authRejected)
    }

    @Test func storageFailuresDoNotHideFreshData() async throws {
        let h = RepositoryHarness()
        await h.remote.script(H.remoteRequest(), .success(TMDBSampleBodies.ok(TMDBSampleBodies.searchPage(titles: ["Fresh"]))))
        await h.storage.setFailure(MoviesError(code: .storage, message: "disk full"))
        let record = try await h.search(.cacheThenNetwork)
        #expect(record.origins == [.network])
        #expect(record.error == nil)
        let cacheOnly = try await h.search(.cacheOnly)
        #expect(cacheOnly.error?.code == .storage)
    }
}
