@testable import MoviesCLI
import MoviesDomain
import MoviesWire
import Testing

/// The browse state machine, driven by events with an explicit clock: keys → state and effects,
/// the typing pause, the infinite scroll's one load at a time, replies replacing the list in place.
@Suite struct BrowseModelTests {
    static let millisecond: UInt64 = 1_000_000
    static let start: UInt64 = 1_000 * millisecond

    static func movies(_ range: ClosedRange<Int>) -> [Movie] {
        range.map { Fixtures.movie($0, "Movie \($0)") }
    }

    static func localIndex(matches: Int) -> Freshness {
        Freshness(origin: .localIndex, fetchedAt: Fixtures.fetchedAt, ageSeconds: 60, stale: true)
    }

    /// A model on a 80×13 terminal (a list of 10 rows) that started with an empty query.
    static func model() -> BrowseModel {
        BrowseModel.start(query: "", watchlistName: "browse", width: 80, height: 13, now: start).0
    }

    /// A search's parameters as browse sends them: not saved to the recent searches unless `remember`.
    static func parameters(_ query: String, page: Int = 1, policy: FetchPolicy? = nil, remember: Bool = false) -> SearchParameters {
        var parameters = SearchParameters(query: query, page: page, policy: policy)
        parameters.remember = remember
        return parameters
    }

    /// The searches among `effects`, as (id, parameters).
    static func searches(_ effects: [BrowseEffect]) -> [(id: Int, parameters: SearchParameters)] {
        effects.compactMap { effect in
            if case .search(let id, let parameters) = effect { return (id, parameters) }
            return nil
        }
    }

    /// Types `text` one key a millisecond apart from `at`; returns every effect.
    static func type(_ text: String, into model: inout BrowseModel, at time: UInt64) -> [BrowseEffect] {
        var effects: [BrowseEffect] = []
        for (offset, character) in text.enumerated() {
            effects += model.handle(.key(.character(character)), now: time + UInt64(offset) * millisecond)
        }
        return effects
    }

    @Test func startingWithoutAQueryLoadsTheRecentQueries() {
        let (model, effects) = BrowseModel.start(query: "", watchlistName: "browse", width: 80, height: 24, now: Self.start)
        #expect(effects == [.loadRecentQueries])
        #expect(model.state.showsRecentQueries)
        #expect(model.state.mode == .query)
    }

    @Test func startingWithAQuerySearchesTheIndexAndTheDaemonAtOnce() {
        let (model, effects) = BrowseModel.start(query: "matrix", watchlistName: "browse", width: 80, height: 24, now: Self.start)
        let searches = Self.searches(effects)
        // A query given on the command line is the user's whole query: saved, as 'movies search' saves it.
        #expect(searches.map(\.parameters) == [Self.parameters("matrix", policy: .localOnly), Self.parameters("matrix", remember: true)])
        #expect(model.state.searchDueAt == nil)
    }

    @Test func eachKeystrokeSearchesTheLocalIndexOnlyUntilThePause() {
        var model = Self.model()
        let effects = Self.type("mat", into: &model, at: Self.start)
        let searches = Self.searches(effects)
        #expect(searches.map(\.parameters.query) == ["m", "ma", "mat"])
        #expect(searches.allSatisfy { $0.parameters.policy == .localOnly })
        // The pause is counted from the last key.
        #expect(model.state.searchDueAt == Self.start + 2 * Self.millisecond + BrowseModel.searchPauseNanoseconds)
        #expect(model.nextDeadline == model.state.searchDueAt)
    }

    @Test func theDaemonIsAskedOnceThePauseHasPassedAndNotBefore() {
        var model = Self.model()
        _ = Self.type("matrix", into: &model, at: Self.start)
        let last = Self.start + 5 * Self.millisecond
        #expect(model.handle(.tick, now: last + BrowseModel.searchPauseNanoseconds - 1).isEmpty)
        let effects = model.handle(.tick, now: last + BrowseModel.searchPauseNanoseconds)
        #expect(Self.searches(effects).map(\.parameters) == [Self.parameters("matrix")], "not saved to the recent searches")
        #expect(model.state.searchDueAt == nil)
        // Only once.
        #expect(model.handle(.tick, now: last + 2 * BrowseModel.searchPauseNanoseconds).isEmpty)
    }

    @Test func aKeyDuringThePausePostponesTheSearch() {
        var model = Self.model()
        _ = Self.type("ma", into: &model, at: Self.start)
        let later = Self.start + 200 * Self.millisecond
        _ = model.handle(.key(.character("t")), now: later)
        #expect(model.handle(.tick, now: Self.start + 1 * Self.millisecond + BrowseModel.searchPauseNanoseconds).isEmpty)
        #expect(Self.searches(model.handle(.tick, now: later + BrowseModel.searchPauseNanoseconds)).map(\.parameters.query) == ["mat"])
    }

    @Test func localMatchesShowFirstThenTMDBsListReplacesThemInPlace() throws {
        var model = Self.model()
        let typeahead = try #require(Self.searches(Self.type("matrix", into: &model, at: Self.start)).last)
        let local = Fixtures.page(1, of: 1, Self.movies(1...3))
        _ = model.handle(.searchReplied(id: typeahead.id, SearchReply(page: local, freshness: Self.localIndex(matches: 3)), continues: false), now: Self.start)
        #expect(model.state.results?.source == .localIndex)
        #expect(model.state.results?.items.map(\.title) == ["Movie 1", "Movie 2", "Movie 3"])
        #expect(model.state.results?.freshnessLine?.contains("among cached movies") == true)

        _ = model.handle(.key(.down), now: Self.start + Self.millisecond)
        let search = try #require(Self.searches(model.handle(.tick, now: Self.start + BrowseModel.searchPauseNanoseconds * 2)).first)
        let cached = Fixtures.page(1, of: 3, Self.movies(11...30))
        _ = model.handle(.searchReplied(id: search.id, SearchReply(page: cached, freshness: Fixtures.cached(age: 7200)), continues: true), now: Self.start)
        #expect(model.state.results?.source == .search)
        #expect(model.state.results?.freshnessLine == "cached 2 h ago · refreshing…")
        #expect(model.state.selection == 1, "the position is kept")
        let fresh = Fixtures.page(1, of: 3, Self.movies(31...50))
        _ = model.handle(.searchReplied(id: search.id, SearchReply(page: fresh, freshness: Fixtures.network), continues: false), now: Self.start)
        #expect(model.state.results?.items.first?.title == "Movie 31")
        #expect(model.state.results?.freshnessLine == "fresh from TMDB")
        #expect(model.state.selection == 1)

        // A late local answer never replaces TMDB's.
        _ = model.handle(.searchReplied(id: typeahead.id, SearchReply(page: local, freshness: Self.localIndex(matches: 3)), continues: false), now: Self.start)
        #expect(model.state.results?.items.first?.title == "Movie 31")
    }

    @Test func repliesForAnOlderQueryAreIgnored() throws {
        var model = Self.model()
        let old = try #require(Self.searches(Self.type("ma", into: &model, at: Self.start)).last)
        _ = Self.type("t", into: &model, at: Self.start + 10 * Self.millisecond)
        _ = model.handle(.searchReplied(id: old.id, SearchReply(page: Fixtures.page(1, of: 1, Self.movies(1...2)), freshness: Self.localIndex(matches: 2)), continues: false), now: Self.start)
        #expect(model.state.currentResults == nil)
    }

    /// A model showing TMDB's first page of three (20 movies) for "movie".
    static func modelWithThreePages() throws -> BrowseModel {
        var (model, effects) = BrowseModel.start(query: "movie", watchlistName: "browse", width: 80, height: 13, now: start)
        let search = try #require(searches(effects).last)
        _ = model.handle(.searchReplied(id: search.id, SearchReply(page: Fixtures.page(1, of: 3, movies(1...20)), freshness: Fixtures.network), continues: false), now: start)
        _ = model.handle(.searchEnded(id: search.id, nil), now: start)
        return model
    }

    @Test func reachingTheLastRowLoadsTheNextPageOnceWhileItIsInFlight() throws {
        var model = try Self.modelWithThreePages()
        _ = model.handle(.key(.escape), now: Self.start)
        var loads: [SearchParameters] = []
        for _ in 0..<18 { loads += Self.searches(model.handle(.key(.down), now: Self.start)).map(\.parameters) }
        #expect(loads.isEmpty, "no load before the last row")
        loads += Self.searches(model.handle(.key(.down), now: Self.start)).map(\.parameters)
        #expect(model.state.selection == 19)
        // Past the end, End, PageDown, j: still the one load in flight.
        for key in [Key.down, .end, .pageDown, .down] { loads += Self.searches(model.handle(.key(key), now: Self.start)).map(\.parameters) }
        #expect(loads == [Self.parameters("movie", page: 2)])
        let load = try #require(model.state.pageLoad)
        #expect(load.page == 2)

        _ = model.handle(.searchReplied(id: load.id, SearchReply(page: Fixtures.page(2, of: 3, Self.movies(21...40)), freshness: Fixtures.network), continues: false), now: Self.start)
        _ = model.handle(.searchEnded(id: load.id, nil), now: Self.start)
        #expect(model.state.results?.items.count == 40)
        #expect(model.state.selection == 19, "the position is kept when the page arrives")
        #expect(model.state.pageLoad == nil)
        // Page 3 is the last: after it, no more loads.
        let third = Self.searches(model.handle(.key(.end), now: Self.start))
        #expect(third.map(\.parameters.page) == [3])
        _ = model.handle(.searchReplied(id: third[0].id, SearchReply(page: Fixtures.page(3, of: 3, Self.movies(41...45)), freshness: Fixtures.network), continues: false), now: Self.start)
        _ = model.handle(.searchEnded(id: third[0].id, nil), now: Self.start)
        #expect(Self.searches(model.handle(.key(.end), now: Self.start)).isEmpty)
        #expect(model.state.results?.hasMorePages == false)
    }

    @Test func aFailedPageLoadCanBeTriedAgain() throws {
        var model = try Self.modelWithThreePages()
        _ = model.handle(.key(.escape), now: Self.start)
        let first = Self.searches(model.handle(.key(.end), now: Self.start))
        try #require(first.count == 1)
        _ = model.handle(.searchEnded(id: first[0].id, .remoteUnavailable("TMDB refused the connection")), now: Self.start)
        #expect(model.state.message?.contains("next page could not be loaded") == true)
        #expect(Self.searches(model.handle(.key(.down), now: Self.start)).map(\.parameters.page) == [2])
    }

    @Test func scrollingKeepsTheSelectionInView() throws {
        var model = try Self.modelWithThreePages()
        _ = model.handle(.key(.escape), now: Self.start)
        _ = model.handle(.key(.pageDown), now: Self.start)
        #expect(model.state.selection == 10)
        #expect(model.state.scrollTop == 1)
        _ = model.handle(.key(.home), now: Self.start)
        #expect(model.state.selection == 0)
        #expect(model.state.scrollTop == 0)
    }

    @Test func viKeysMoveOnlyInListModeAndTypeInQueryMode() throws {
        var model = try Self.modelWithThreePages()
        _ = model.handle(.key(.character("j")), now: Self.start)
        #expect(model.state.query == "moviej")
        _ = model.handle(.key(.backspace), now: Self.start)
        #expect(model.state.query == "movie")
        _ = model.handle(.key(.escape), now: Self.start)
        #expect(model.state.mode == .list)
        _ = model.handle(.key(.character("j")), now: Self.start)
        _ = model.handle(.key(.character("j")), now: Self.start)
        _ = model.handle(.key(.character("k")), now: Self.start)
        #expect(model.state.selection == 1)
        _ = model.handle(.key(.character("G")), now: Self.start)
        #expect(model.state.selection == 19)
        _ = model.handle(.key(.character("g")), now: Self.start)
        #expect(model.state.selection == 0)
        _ = model.handle(.key(.character("/")), now: Self.start)
        #expect(model.state.mode == .query)
        #expect(model.state.query == "movie")
    }

    @Test func quittingKeys() {
        var model = Self.model()
        #expect(model.handle(.key(.control("c")), now: Self.start) == [.quit(.interrupted)])
        #expect(model.handle(.key(.escape), now: Self.start).isEmpty)
        #expect(model.handle(.key(.character("q")), now: Self.start) == [.quit(.success)])
        #expect(model.handle(.key(.control("z")), now: Self.start) == [.suspend])
    }

    @Test func enterOnARecentQuerySearchesItAtOnce() {
        var model = Self.model()
        _ = model.handle(.recentQueriesLoaded(.success(["matrix", "alien"])), now: Self.start)
        _ = model.handle(.key(.down), now: Self.start)
        let effects = model.handle(.key(.enter), now: Self.start)
        #expect(model.state.query == "alien")
        #expect(Self.searches(effects).map(\.parameters) == [Self.parameters("alien", policy: .localOnly), Self.parameters("alien")])
        #expect(effects.contains(.saveRecentQuery("alien")), "chosen again: the newest recent search")
    }

    @Test func clearingTheQueryShowsTheRecentQueriesAgain() {
        var model = Self.model()
        _ = Self.type("ab", into: &model, at: Self.start)
        let effects = model.handle(.key(.control("u")), now: Self.start)
        #expect(model.state.query.isEmpty)
        #expect(effects == [.loadRecentQueries])
        #expect(model.state.searchDueAt == nil)
    }

    @Test func enterOpensDetailsAndThePosterWaitsForTheTerminalsAnswer() throws {
        var model = try Self.modelWithThreePages()
        let effects = model.handle(.key(.enter), now: Self.start)
        let details = try #require(model.state.details)
        #expect(effects == [.loadMovie(id: details.requestID, movieID: 1)])
        #expect(model.state.screen == .details)
        let movie = MovieDetails(id: 1, title: "Movie 1", overview: "Plot.", releaseDate: "1999-03-31", runtime: 136, genres: ["Action"], posterPath: "/p1.png", voteAverage: 8.2, voteCount: 24_000)
        let replied = model.handle(.movieReplied(id: details.requestID, MovieReply(movie: movie, freshness: Fixtures.network), continues: false), now: Self.start)
        #expect(replied.isEmpty, "no poster before the terminal said it draws images")
        #expect(model.state.details?.summary?.factsLine == "1999 · 136 min · Action · ★ 8.2 (24000 votes)")
        // The terminal answers: kitty graphics, then the device attributes.
        _ = model.handle(.terminalReply(.kittyGraphics(ok: true)), now: Self.start)
        let poster = model.handle(.terminalReply(.deviceAttributes), now: Self.start)
        #expect(poster == [.loadPoster(id: details.requestID, path: "/p1.png", width: BrowseModel.posterPixelWidth)])
        _ = model.handle(.posterLoaded(id: details.requestID, .success(PosterReply(mimeType: "image/png", base64: "AAAA", width: 185, freshness: Fixtures.network))), now: Self.start)
        #expect(model.state.details?.poster == .loaded(base64: "AAAA", mimeType: "image/png"))
        _ = model.handle(.key(.escape), now: Self.start)
        #expect(model.state.screen == .list)
    }

    @Test func aTerminalThatNeverAnswersGetsNoPoster() throws {
        var model = try Self.modelWithThreePages()
        _ = model.handle(.key(.enter), now: Self.start)
        let details = try #require(model.state.details)
        let movie = MovieDetails(id: 1, title: "Movie 1", genres: [], posterPath: "/p1.png")
        _ = model.handle(.movieReplied(id: details.requestID, MovieReply(movie: movie, freshness: Fixtures.network), continues: false), now: Self.start)
        #expect(model.nextDeadline == Self.start + GraphicsProbe.timeoutMilliseconds * Self.millisecond)
        #expect(model.handle(.tick, now: Self.start + GraphicsProbe.timeoutMilliseconds * Self.millisecond).isEmpty)
        #expect(model.state.graphics == nil)
        #expect(model.state.details?.poster == MovieDetailsState.Poster.none)
    }

    @Test func accountEditsSaySavedPendingOffline() throws {
        var model = try Self.modelWithThreePages()
        _ = model.handle(.key(.escape), now: Self.start)
        let effects = model.handle(.key(.character("a")), now: Self.start)
        let edit = try AccountEdit(movieID: 1, change: .watchlist(true))
        #expect(effects == [.editAccount(edit, title: "Movie 1")])
        let pending = PendingEdit(id: 1, edit: edit, state: .pending, createdAt: Fixtures.fetchedAt, attempts: 1)
        let sync = AccountSyncStatus(activity: .offline, accountID: 22011, username: "stub-user", pending: 1, lastError: "TMDB refused the connection.")
        let reply = AccountEditReply(AccountEditResult(entry: pending, sync: sync))
        _ = model.handle(.accountEdited(edit, title: "Movie 1", .success(reply)), now: Self.start)
        #expect(model.state.message?.contains("saved, pending") == true)
        #expect(model.state.message?.hasPrefix("Add 1 (Movie 1) to the watchlist") == true)
        _ = model.handle(.key(.character("j")), now: Self.start)
        #expect(model.state.message == nil, "a message lasts until the next key")
    }

    @Test func anOfflineSearchKeepsTheLocalMatchesAndSaysOffline() throws {
        var model = Self.model()
        let effects = Self.type("ma", into: &model, at: Self.start)
        let typeahead = try #require(Self.searches(effects).last)
        _ = model.handle(.searchReplied(id: typeahead.id, SearchReply(page: Fixtures.page(1, of: 1, Self.movies(1...2)), freshness: Self.localIndex(matches: 2)), continues: false), now: Self.start)
        let search = try #require(Self.searches(model.handle(.tick, now: Self.start + BrowseModel.searchPauseNanoseconds * 2)).first)
        _ = model.handle(.searchEnded(id: search.id, .remoteUnavailable("TMDB refused the connection")), now: Self.start)
        #expect(model.state.results?.items.count == 2)
        #expect(model.state.results?.freshnessLine?.hasPrefix("offline — ") == true)
        #expect(model.state.searchError == nil)
    }
}
