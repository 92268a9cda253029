import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing

/// A query with no cached page that TMDB cannot answer is answered from the movies other cached
/// queries brought in; `local_only` asks only them; TMDB's own "no such thing" is never overridden.
@Suite struct DefaultMoviesRepositoryLocalIndexTests {
    typealias H = RepositoryHarness

    /// A harness whose cache holds the "star" page (fetched from TMDB an hour ago), after which
    /// TMDB answers every other search with `failure` (or a page titled "Fresh").
    private func harness(failure: MoviesError? = H.offline) async throws -> RepositoryHarness {
        let harness = RepositoryHarness()
        await harness.remote.script(H.remoteRequest("star"), .success(TMDBSampleBodies.ok(TMDBSampleBodies.searchPage(titles: ["Star Wars", "Lone Star", "Stardust"]))))
        await harness.remote.script(H.remoteRequest("star"), .failure(H.offline))  // after the first answer
        #expect(try await harness.search(.networkOnly, query: "star").error == nil)
        harness.clock.advance(by: 3600)
        await harness.remote.script(H.remoteRequest("wars"), failure.map { .failure($0) } ?? .success(TMDBSampleBodies.ok(TMDBSampleBodies.searchPage(titles: ["Fresh"]))))
        return harness
    }

    @Test(arguments: [FetchPolicy.cacheThenNetwork, .cacheFirst, .networkOnly])
    func tmdbUnreachableAndNothingCachedForTheQueryAnswersFromTheIndex(policy: FetchPolicy) async throws {
        let h = try await harness()
        let record = try await h.search(policy, query: "wars")
        #expect(record.error == nil)
        #expect(record.origins == [.localIndex])
        let update = try #require(record.updates.first)
        #expect(update.titles == ["Star Wars"])
        #expect(update.value.totalResults == 1)
        #expect(update.value.totalPages == 1)
        #expect(update.freshness.stale)
        #expect(update.freshness.ageSeconds == 3600)
        #expect(update.freshness.remoteError == H.offline.message)
    }

    @Test func cacheOnlyWithNothingCachedForTheQueryAnswersFromTheIndexWithoutTheNetwork() async throws {
        let h = try await harness()
        let before = await h.remote.fetchCount
        let record = try await h.search(.cacheOnly, query: "wars")
        #expect(record.origins == [.localIndex])
        #expect(record.updates.first?.titles == ["Star Wars"])
        #expect(await h.remote.fetchCount == before)
    }

    @Test func localOnlyAsksOnlyTheIndexEvenWhenTheQueryHasACachedPage() async throws {
        let h = try await harness(failure: nil)
        let before = await h.remote.fetchCount
        let record = try await h.search(.localOnly, query: "star")
        #expect(record.origins == [.localIndex])
        #expect(Set(record.updates.first?.titles ?? []) == ["Star Wars", "Lone Star", "Stardust"])
        #expect(record.updates.first?.freshness.remoteError == nil)
        let none = try await h.search(.localOnly, query: "alien")
        #expect(none.error?.code == .notCached)
        #expect(none.updates.isEmpty)
        #expect(await h.remote.fetchCount == before)
    }

    @Test func theIndexHonoursTheYearAndIgnoresTheRegion() async throws {
        let h = try await harness(failure: nil)
        func local(year: Int?, region: String? = nil) async throws -> FetchedRecord<MoviesPage> {
            let request = try SearchRequest(query: MovieQuery("star")!, region: region, year: year)
            return await FetchedRecord { try await h.repository.searchMovies(request, policy: .localOnly, maxStaleSeconds: nil, emit: $0) }
        }
        // The sample movies were all released in 1999.
        let released = try await local(year: 1999, region: "GB")
        #expect(Set(released.updates.first?.titles ?? []) == ["Star Wars", "Lone Star", "Stardust"])
        #expect(released.updates.first?.value.totalResults == 3)
        let otherYear = try await local(year: 2003)
        #expect(otherYear.error?.code == .notCached, "no cached movie of 2003 matches")
        #expect(otherYear.updates.isEmpty)
    }

    @Test func tmdbAnsweringWinsOverTheIndex() async throws {
        let h = try await harness(failure: nil)
        let record = try await h.search(.cacheThenNetwork, query: "wars")
        #expect(record.origins == [.network])
        #expect(record.updates.first?.titles == ["Fresh"])
    }

    @Test func tmdbSayingNoSuchThingIsNeverOverridden() async throws {
        let h = try await harness(failure: MoviesError(code: .notFound, message: "no results", httpStatus: 404))
        let record = try await h.search(.cacheThenNetwork, query: "wars")
        #expect(record.error?.code == .notFound)
        #expect(record.updates.isEmpty)
    }

    @Test func nothingMatchingLocallyKeepsTheOriginalError() async throws {
        let h = try await harness()
        await h.remote.script(H.remoteRequest("alien"), .failure(H.offline))
        let record = try await h.search(.cacheThenNetwork, query: "alien")
        #expect(record.error?.code == .remoteUnavailable)
        #expect(record.updates.isEmpty)
    }

    @Test(arguments: [FetchPolicy.networkOnly, .cacheThenNetwork])
    func aQueryWithACachedPageIsNeverAnsweredFromTheIndex(policy: FetchPolicy) async throws {
        // network_only is what the daemon asks once it has sent the cached page itself: TMDB's
        // failure must reach it, to end the call with that page, not with the index's.
        let h = try await harness()
        let record = try await h.search(policy == .networkOnly ? .networkOnly : .cacheThenNetwork, maxStale: 1, query: "star")
        #expect(record.error?.code == .remoteUnavailable)
        #expect(!record.origins.contains(.localIndex))
    }

    @Test func aQueryWithACachedPageIsAnsweredFromThatPageNotTheIndex() async throws {
        let h = try await harness()
        let record = try await h.search(.cacheThenNetwork, query: "star")
        #expect(record.origins == [.cache])
        #expect(record.error?.code == .remoteUnavailable, "the cached page, then TMDB's failure: no local answer after it")
    }
}
