@testable import MoviesCLI
import MoviesDomain
import Testing

@Suite struct SearchMoviesViewModelTests {
    let first = Fixtures.page(1, of: 2, [Fixtures.movie(1, "The Matrix"), Fixtures.movie(2, "The Matrix Reloaded")])
    let second = Fixtures.page(2, of: 2, [Fixtures.movie(3, "The Matrix Revolutions")])

    @Test func firstPageOnly() {
        let client = MockMoviesClient()
        client.searchScripts[1] = .init(replies: [Fixtures.search(first, Fixtures.network)])
        let viewModel = SearchMoviesViewModel(client: client)

        viewModel.didSearch(query: "matrix")

        #expect(viewModel.items.map(\.title) == ["The Matrix", "The Matrix Reloaded"])
        #expect(viewModel.currentPage == 1)
        #expect(viewModel.hasMorePages)
        #expect(viewModel.loading == nil)
        #expect(viewModel.error == nil)
        #expect(!viewModel.isEmpty)
        #expect(client.searches.map(\.page) == [1])
    }

    @Test func didLoadNextPageAppendsTheSecondPage() {
        let client = MockMoviesClient()
        client.searchScripts[1] = .init(replies: [Fixtures.search(first, Fixtures.network)])
        client.searchScripts[2] = .init(replies: [Fixtures.search(second, Fixtures.network)])
        let viewModel = SearchMoviesViewModel(client: client)
        var loadingStates: [LoadingState?] = []
        viewModel.didChange = { loadingStates.append(viewModel.loading) }

        viewModel.didSearch(query: "matrix")
        viewModel.didLoadNextPage()

        #expect(viewModel.items.map(\.id) == ["1", "2", "3"])
        #expect(viewModel.currentPage == 2)
        #expect(!viewModel.hasMorePages)
        #expect(loadingStates.contains(.fullScreen))
        #expect(loadingStates.contains(.nextPage))
        #expect(viewModel.loading == nil)
    }

    @Test func lastPageStopsLoadingMore() {
        let client = MockMoviesClient()
        client.searchScripts[1] = .init(replies: [Fixtures.search(Fixtures.page(1, of: 1, [Fixtures.movie(1, "Heat")]), Fixtures.network)])
        let viewModel = SearchMoviesViewModel(client: client)

        viewModel.didSearch(query: "heat")
        viewModel.didLoadNextPage()

        #expect(!viewModel.hasMorePages)
        #expect(client.searches.count == 1)
    }

    @Test func errorWithNothingCachedIsShown() {
        let client = MockMoviesClient()
        client.searchScripts[1] = .init(replies: [], error: .remoteUnavailable("timed out"))
        let viewModel = SearchMoviesViewModel(client: client)

        viewModel.didSearch(query: "matrix")

        #expect(viewModel.error == .remoteUnavailable("timed out"))
        #expect(viewModel.errorText?.contains("timed out") == true)
        #expect(viewModel.isEmpty)
        #expect(viewModel.loading == nil)
    }

    @Test func cachedThenFreshReplacesItems() {
        let stale = Fixtures.page(1, of: 1, [Fixtures.movie(1, "Old title")])
        let fresh = Fixtures.page(1, of: 1, [Fixtures.movie(1, "New title"), Fixtures.movie(9, "Another")])
        let client = MockMoviesClient()
        client.searchScripts[1] = .init(replies: [Fixtures.search(stale, Fixtures.cached(age: 7_200)), Fixtures.search(fresh, Fixtures.network)])
        let viewModel = SearchMoviesViewModel(client: client)
        var seen: [(titles: [String], freshness: String?)] = []
        viewModel.didChange = { seen.append((viewModel.items.map(\.title), viewModel.freshnessLine)) }

        viewModel.didSearch(query: "title")

        #expect(seen.contains { $0.titles == ["Old title"] && $0.freshness == "cached 2 h ago · refreshing…" })
        #expect(viewModel.items.map(\.title) == ["New title", "Another"])
        #expect(viewModel.freshnessLine == "fresh from TMDB")
    }

    @Test func cachedThenErrorKeepsItemsAndShowsOfflineLine() {
        let cached = Fixtures.page(1, of: 1, [Fixtures.movie(1, "The Matrix")])
        let client = MockMoviesClient()
        client.searchScripts[1] = .init(replies: [Fixtures.search(cached, Fixtures.cached(age: 3 * 86_400, stale: true))], error: .remoteUnavailable("no route to host"))
        let viewModel = SearchMoviesViewModel(client: client)

        viewModel.didSearch(query: "matrix")

        #expect(viewModel.items.map(\.title) == ["The Matrix"])
        #expect(viewModel.error == nil)
        #expect(viewModel.freshnessLine == "offline — showing results cached 3 days ago")
    }

    @Test func cachedThenDaemonFailureIsStillAnError() {
        let cached = Fixtures.page(1, of: 1, [Fixtures.movie(1, "The Matrix")])
        let client = MockMoviesClient()
        client.searchScripts[1] = .init(replies: [Fixtures.search(cached, Fixtures.cached(age: 60))], error: .daemonUnreachable(socketPath: "/s", reason: "connection lost"))
        let viewModel = SearchMoviesViewModel(client: client)

        viewModel.didSearch(query: "matrix")

        #expect(viewModel.error == .daemonUnreachable(socketPath: "/s", reason: "connection lost"))
    }

    @Test func cancelIgnoresLaterReplies() {
        let client = MockMoviesClient()
        let cached = Fixtures.page(1, of: 1, [Fixtures.movie(1, "Cached")])
        let fresh = Fixtures.page(1, of: 1, [Fixtures.movie(1, "Fresh")])
        client.searchScripts[1] = .init(replies: [Fixtures.search(cached, Fixtures.cached(age: 10)), Fixtures.search(fresh, Fixtures.network)])
        let viewModel = SearchMoviesViewModel(client: client)
        var cancelled = false
        viewModel.didChange = {
            if !cancelled, viewModel.items.first?.title == "Cached" {
                cancelled = true
                viewModel.didCancelSearch()
            }
        }

        viewModel.didSearch(query: "x")

        #expect(viewModel.items.map(\.title) == ["Cached"])
        #expect(viewModel.loading == nil)
    }

    @Test func searchPassesPolicyPageAndMaxStale() {
        let client = MockMoviesClient()
        client.searchScripts[3] = .init(replies: [Fixtures.search(Fixtures.page(3, of: 5, []), Fixtures.network)])
        let viewModel = SearchMoviesViewModel(client: client, policy: .cacheOnly, maxStaleSeconds: 3_600)

        viewModel.didSearch(query: "alien", page: 3)

        #expect(client.searches == [SearchParameters(query: "alien", page: 3, policy: .cacheOnly, maxStaleSeconds: 3_600)])
        #expect(viewModel.isEmpty)
    }

    @Test func didSelectItemChoosesTheRow() {
        let client = MockMoviesClient()
        client.searchScripts[1] = .init(replies: [Fixtures.search(first, Fixtures.network)])
        let viewModel = SearchMoviesViewModel(client: client)
        viewModel.didSearch(query: "matrix")

        viewModel.didSelectItem(at: 1)
        viewModel.didSelectItem(at: 99)

        #expect(viewModel.selectedItem?.id == "2")
    }

    @Test func itemViewModelFormatsYearAndRating() {
        let item = MoviesListItemViewModel(movie: Fixtures.movie(5, "Alien", year: "1979", vote: 8.15))
        let unknown = MoviesListItemViewModel(movie: Fixtures.movie(6, "Untitled", year: nil, vote: nil))
        #expect(item.year == "1979")
        #expect(item.rating == "8.2")
        #expect(unknown.year == "")
        #expect(unknown.rating == "–")
    }

    /// TMDB reports an average of 0 for a film nobody voted on: that is no rating, not 0.0 (issue 28).
    @Test func aFilmWithNoVotesShowsNoRating() {
        #expect(MoviesListItemViewModel(movie: Fixtures.movie(7, "Tobor", year: "1964", vote: 0)).rating == "–")
        #expect(RatingFormat.average(7.5, votes: 0) == "–")
        #expect(RatingFormat.average(7.5, votes: 3) == "7.5")
    }
}
