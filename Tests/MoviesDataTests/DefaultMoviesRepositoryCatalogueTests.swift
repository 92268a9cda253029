import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing

/// The local search lists the cached movies first, then the catalogue's titles most popular
/// first, marked `catalogue`; a movie's details offline come from the catalogue when nothing is
/// cached.
@Suite struct DefaultMoviesRepositoryCatalogueTests {
    typealias H = RepositoryHarness

    static let catalogue = InMemoryCatalogue([
        CatalogueTitle(id: 1, title: "Star Wars", popularity: 90),  // also cached (the sample page's id 1)
        CatalogueTitle(id: 500, title: "Star Trek", popularity: 70),
        CatalogueTitle(id: 501, title: "Starman", popularity: 3),
        CatalogueTitle(id: 502, title: "Dark Star", popularity: 20),
        CatalogueTitle(id: 503, title: "Amélie", popularity: 40),
    ], importedAt: 1_000)

    /// A harness whose cache holds the "star" page (ids 1 and 2), with TMDB offline after it.
    private func harness() async throws -> RepositoryHarness {
        let harness = RepositoryHarness(catalogue: Self.catalogue)
        await harness.remote.script(H.remoteRequest("star"), .success(TMDBSampleBodies.ok(TMDBSampleBodies.searchPage(titles: ["Star Wars", "Lone Star"]))))
        #expect(try await harness.search(.networkOnly, query: "star").error == nil)
        harness.clock.advance(by: 3600)
        return harness
    }

    @Test func cachedMoviesFirstThenCatalogueTitlesByPopularityMarked() async throws {
        let h = try await harness()
        let record = try await h.search(.localOnly, query: "star")
        let page = try #require(record.updates.first?.value)
        #expect(page.movies.prefix(2).map(\.catalogue) == [nil, nil])
        #expect(Set(page.movies.prefix(2).map(\.id)) == [1, 2])
        // The catalogue's copy of the cached Star Wars is left out of this page.
        #expect(page.movies.dropFirst(2).map(\.id) == [500, 502, 501])
        #expect(page.movies.dropFirst(2).allSatisfy { $0.catalogue == true && $0.originalTitle == $0.title })
        #expect(page.totalResults == 2 + 4)
        #expect(record.updates.first?.freshness.origin == .localIndex)
    }

    @Test func onlyTheCatalogueMatchingStillAnswersAndNothingMatchingIsNotCached() async throws {
        let h = try await harness()
        let record = try await h.search(.localOnly, query: "amélie")
        #expect(record.updates.first?.value.movies.map(\.id) == [503])
        #expect(record.updates.first?.value.movies.first?.catalogue == true)
        #expect(record.updates.first?.freshness.fetchedAt == Date(timeIntervalSince1970: 1_000))
        let none = try await h.search(.localOnly, query: "alien")
        #expect(none.error?.code == .notCached)
    }

    @Test func aCatalogueOnlyMovieOfflineSaysWhatIsKnown() async throws {
        let h = try await harness()
        await h.remote.script(.movie(id: 500, language: nil), .failure(H.offline))
        let record = await FetchedRecord { try await h.repository.movieDetails(id: 500, language: nil, policy: .cacheThenNetwork, emit: $0) }
        let update = try #require(record.updates.first)
        #expect(record.error == nil)
        #expect(update.value.catalogue == true && update.value.title == "Star Trek" && update.value.popularity == 70)
        #expect(update.freshness.stale && update.freshness.remoteError == H.offline.message)
        // Not in the catalogue either: TMDB's failure, as before.
        await h.remote.script(.movie(id: 999, language: nil), .failure(H.offline))
        let unknown = await FetchedRecord { try await h.repository.movieDetails(id: 999, language: nil, policy: .cacheThenNetwork, emit: $0) }
        #expect(unknown.updates.isEmpty && unknown.error?.code == H.offline.code)
    }

    /// The rest of a planned call (the event loop answered its immediate part): the catalogue
    /// answers only when no cached value did or will, and only a person.
    @Test(arguments: [
        ("a cached value answered at once", FetchPlan(immediate: .first, fetches: true, fallsBackToCache: true), false),
        ("a cached value to fall back on", FetchPlan(fetches: true, fallsBackToCache: true), false),
        ("a cached value too stale to serve", FetchPlan(fetches: true), true),
        ("nothing cached", FetchPlan(fetches: true, localIndex: .ifNothingElse), true),
        ("nothing cached, a refresh asking", FetchPlan(fetches: true, localIndex: .ifNothingElse, demand: .background), false),
    ])
    func theCatalogueAnswersThePlansRestOnlyWhenNoCachedValueDoes(name: String, plan: FetchPlan, catalogueAnswers: Bool) async throws {
        let h = try await harness()
        await h.remote.script(.movie(id: 500, language: nil), .failure(H.offline))
        let record = await FetchedRecord { try await h.repository.movieDetails(id: 500, language: nil, plan: plan, emit: $0) }
        if catalogueAnswers {
            #expect(record.error == nil && record.updates.first?.value.catalogue == true, "\(name)")
        } else {
            #expect(record.updates.isEmpty && record.error?.code == H.offline.code, "\(name): TMDB's failure, not the catalogue's title")
        }
    }
}
