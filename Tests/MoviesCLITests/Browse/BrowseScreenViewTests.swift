@testable import MoviesCLI
import MoviesDomain
import MoviesWire
import Testing

@Suite struct BrowseScreenViewTests {
    @Test func theListScreenFitsTheTerminalWithKeysAtTheBottom() throws {
        var (model, effects) = BrowseModel.start(query: "matrix", watchlistName: "browse", width: 40, height: 8, now: 0)
        let search = try #require(BrowseModelTests.searches(effects).last)
        let page = Fixtures.page(1, of: 2, (1...10).map { Fixtures.movie($0, "A movie with a very long title number \($0)") })
        _ = model.handle(.searchReplied(id: search.id, SearchReply(page: page, freshness: Fixtures.cached(age: 7200)), continues: true), now: 0)
        let frame = BrowseScreenView.frame(model.state, usesColor: false)
        #expect(frame.rows.count == 8)
        #expect(frame.rows[0] == "Search: matrix")
        #expect(frame.rows[1] == "\"matrix\": 4 results, 10 shown — cached …")
        #expect(frame.rows[2].hasPrefix("▶ A movie with"))
        #expect(frame.rows[2].hasSuffix("1999   8.2"))
        #expect(frame.rows.allSatisfy { DisplayWidth.of($0) <= 40 })
        #expect(frame.rows[7].hasPrefix("↑↓"))
        #expect(frame.cursor?.row == 0)
        #expect(frame.cursor?.column == 14)
    }

    @Test func noColourMeansNoEscapeSequences() throws {
        var (model, _) = BrowseModel.start(query: "", watchlistName: "browse", width: 60, height: 10, now: 0)
        _ = model.handle(.recentQueriesLoaded(.success(["matrix"])), now: 0)
        let plain = BrowseScreenView.frame(model.state, usesColor: false)
        #expect(!plain.rows.joined().contains("\u{1B}"))
        #expect(plain.rows[2] .hasPrefix("▶ matrix"))
        let styled = BrowseScreenView.frame(model.state, usesColor: true)
        #expect(styled.rows.joined().contains("\u{1B}[7m"))
    }

    @Test func detailsShowTheFactsTheIssueAsksFor() throws {
        var (model, effects) = BrowseModel.start(query: "matrix", watchlistName: "browse", width: 80, height: 30, now: 0)
        let search = try #require(BrowseModelTests.searches(effects).last)
        _ = model.handle(.searchReplied(id: search.id, SearchReply(page: Fixtures.page(1, of: 1, [Fixtures.movie(603, "The Matrix")]), freshness: Fixtures.network), continues: false), now: 0)
        _ = model.handle(.key(.enter), now: 0)
        let details = try #require(model.state.details)
        _ = model.handle(.movieReplied(id: details.requestID, MovieReply(movie: Fixtures.matrix, freshness: Fixtures.network), continues: false), now: 0)
        let text = BrowseScreenView.frame(model.state, usesColor: false).rows.joined(separator: "\n")
        for expected in ["The Matrix", "1999 · 136 min · Action, Science Fiction · ★ 8.2 (24000 votes)", "fresh from TMDB", "Set in the 22nd century", "TMDB page: https://www.themoviedb.org/movie/603", "TMDB id:   603"] {
            #expect(text.contains(expected), "\(expected)")
        }
    }
}
