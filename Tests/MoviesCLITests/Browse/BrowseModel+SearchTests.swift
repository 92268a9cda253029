@testable import MoviesCLI
import MoviesDomain
import MoviesWire
import Testing

/// Issue 46: only a query the user commits to is a recent search; TMDB's list keeps the selected
/// movie selected; the list fills the screen; one letter says something true; a movie's TMDB page
/// opens or is copied.
@Suite struct BrowseModelSearchTests {
    typealias T = BrowseModelTests

    static func saves(_ effects: [BrowseEffect]) -> [String] {
        effects.compactMap { effect in
            if case .saveRecentQuery(let query) = effect { return query }
            return nil
        }
    }

    /// Every effect of typing `text`, pausing after each of `pausesAfter` prefixes, with the
    /// daemon's answers for each search (one movie).
    static func typeWithPauses(_ words: [String], into model: inout BrowseModel) -> [BrowseEffect] {
        var effects: [BrowseEffect] = []
        var now = T.start
        for word in words {
            _ = model.handle(.key(.control("u")), now: now)
            effects += T.type(word, into: &model, at: now)
            now += UInt64(word.count) * T.millisecond + BrowseModel.searchPauseNanoseconds
            let tick = model.handle(.tick, now: now)
            effects += tick
            for search in T.searches(tick) {
                let page = Fixtures.page(1, of: 1, [Fixtures.movie(7, "Blade")])
                effects += model.handle(.searchReplied(id: search.id, SearchReply(page: page, freshness: Fixtures.network), continues: false), now: now)
                effects += model.handle(.searchEnded(id: search.id, nil), now: now)
            }
            now += T.millisecond
        }
        return effects
    }

    @Test func theSearchesWhileTypingSaveNothingAndOpeningAMovieSavesTheQueryOnce() throws {
        var model = T.model()
        let typing = Self.typeWithPauses(["blad", "blade", "matri", "blade runner"], into: &model)
        let searches = T.searches(typing).map(\.parameters)
        #expect(searches.contains { $0.policy == nil }, "TMDB was asked after each pause")
        #expect(searches.allSatisfy { !$0.remember }, "no search while typing is saved: \(searches)")
        #expect(Self.saves(typing).isEmpty)

        let open = model.handle(.key(.enter), now: T.start + 10 * BrowseModel.searchPauseNanoseconds)
        #expect(model.state.screen == .details)
        #expect(Self.saves(open) == ["blade runner"])
        // Back, and a command on the same movie: the query is saved already.
        _ = model.handle(.key(.escape), now: T.start + 11 * BrowseModel.searchPauseNanoseconds)
        _ = model.handle(.key(.escape), now: T.start + 11 * BrowseModel.searchPauseNanoseconds)
        let watchlist = model.handle(.key(.character("w")), now: T.start + 11 * BrowseModel.searchPauseNanoseconds)
        #expect(watchlist.contains(.addToWatchlist(WatchlistEdit(name: "browse", movieIDs: [7]))))
        #expect(Self.saves(watchlist).isEmpty)
    }

    @Test func actingOnAMovieOfTheListSavesItsQuery() throws {
        var model = T.model()
        _ = Self.typeWithPauses(["alien"], into: &model)
        _ = model.handle(.key(.escape), now: T.start + 10 * BrowseModel.searchPauseNanoseconds)
        let effects = model.handle(.key(.character("f")), now: T.start + 10 * BrowseModel.searchPauseNanoseconds)
        #expect(Self.saves(effects) == ["alien"])
        #expect(effects.contains { if case .editAccount = $0 { return true } else { return false } })
        // Quitting saves nothing more.
        #expect(Self.saves(model.handle(.key(.character("q")), now: T.start + 11 * BrowseModel.searchPauseNanoseconds)).isEmpty)
    }

    @Test func oOpensTheMoviesTMDBPageAndYCopiesIt() throws {
        var model = try T.modelWithThreePages()
        _ = model.handle(.key(.escape), now: T.start)
        _ = model.handle(.key(.character("j")), now: T.start)
        #expect(model.handle(.key(.character("o")), now: T.start) == [.openLink("https://www.themoviedb.org/movie/2")])
        #expect(model.handle(.key(.character("y")), now: T.start) == [.copyToClipboard("https://www.themoviedb.org/movie/2")])
        #expect(model.state.message?.contains("https://www.themoviedb.org/movie/2") == true)
        _ = model.handle(.linkOpened(link: "https://www.themoviedb.org/movie/2", failure: "no program to open it"), now: T.start)
        #expect(model.state.message == "Could not open https://www.themoviedb.org/movie/2: no program to open it")
    }

    @Test func tmdbsListKeepsTheSelectedMovieSelected() throws {
        var model = T.model()
        let typeahead = try #require(T.searches(T.type("blade", into: &model, at: T.start)).last)
        let local = Fixtures.page(1, of: 1, T.movies(1...5))
        _ = model.handle(.searchReplied(id: typeahead.id, SearchReply(page: local, freshness: T.localIndex(matches: 5)), continues: false), now: T.start)
        for _ in 0..<2 { _ = model.handle(.key(.down), now: T.start + T.millisecond) }
        #expect(model.selectedMovieID == 3)
        let search = try #require(T.searches(model.handle(.tick, now: T.start + 2 * BrowseModel.searchPauseNanoseconds)).first)
        // TMDB lists movie 3 thirteenth: it stays selected; Enter opens it, not TMDB's third movie.
        let ids = Array(100...111) + [3] + Array(112...118)
        let fresh = Fixtures.page(1, of: 1, ids.map { Fixtures.movie($0, "Movie \($0)") })
        _ = model.handle(.searchReplied(id: search.id, SearchReply(page: fresh, freshness: Fixtures.network), continues: false), now: T.start)
        #expect(model.selectedMovieID == 3)
        #expect(model.state.selection == 12)
        #expect(model.state.selection - model.state.scrollTop == 2, "on the same row of the screen")
        _ = model.handle(.key(.enter), now: T.start)
        #expect(model.state.details?.movieID == 3)
    }

    @Test func aListShorterThanTheScreenLoadsTheNextPagesUntilItIsFull() throws {
        // 120×40: 37 rows of list, TMDB's pages have 20 movies.
        var (model, effects) = BrowseModel.start(query: "movie", watchlistName: "browse", width: 120, height: 40, now: T.start)
        let search = try #require(T.searches(effects).last)
        let first = model.handle(.searchReplied(id: search.id, SearchReply(page: Fixtures.page(1, of: 9, T.movies(1...20)), freshness: Fixtures.network), continues: false), now: T.start)
        let load = try #require(T.searches(first).first, "page 2 is asked for at once: 17 rows would stay blank")
        #expect(load.parameters == T.parameters("movie", page: 2))
        _ = model.handle(.searchEnded(id: search.id, nil), now: T.start)
        _ = model.handle(.searchReplied(id: load.id, SearchReply(page: Fixtures.page(2, of: 9, T.movies(21...40)), freshness: Fixtures.network), continues: false), now: T.start)
        #expect(T.searches(model.handle(.searchEnded(id: load.id, nil), now: T.start)).isEmpty, "40 rows fill 37")
        #expect(model.state.results?.items.count == 40)
        #expect(model.state.selection == 0)

        // A taller terminal has rows to fill again.
        let resized = model.handle(.resized(width: 120, height: 60), now: T.start)
        #expect(T.searches(resized).map(\.parameters.page) == [3])
    }

    @Test func oneLetterWithNoCachedMatchSaysHowTheLocalIndexMatches() throws {
        var model = T.model()
        let typeahead = try #require(T.searches(T.type("b", into: &model, at: T.start)).last)
        _ = model.handle(.searchEnded(id: typeahead.id, .notCached("nothing cached matches")), now: T.start)
        let status = BrowseListView.statusLine(model.state, width: 200, usesColor: false)
        #expect(status.contains("no cached movie has the word \"b\""), "\(status)")
        #expect(status.contains("from 2 letters"))
        #expect(!status.contains("no matches among cached movies"))
        // Two letters: the start of words; "no matches" is then true.
        let second = try #require(T.searches(T.type("l", into: &model, at: T.start + T.millisecond)).last)
        _ = model.handle(.searchEnded(id: second.id, .notCached("nothing cached matches")), now: T.start)
        #expect(BrowseListView.statusLine(model.state, width: 200, usesColor: false).contains("no matches among cached movies"))
    }
}
