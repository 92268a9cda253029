import FoundationEssentials
@testable import MoviesCLI
import MoviesDomain
import MoviesWire
import Testing
import Varlink

@Suite struct WatchlistCommandTests {
    typealias Harness = MoviesCommandLineTests.Harness

    @Test func addSendsQueriesPagesAndMovies() throws {
        let harness = Harness()
        let list = Watchlist(name: "films", queries: [try WatchlistQuery(query: #require(MovieQuery("the matrix")), pages: 2)], movieIDs: [603])
        harness.client.watchlistResult = .success(WatchlistReply(watchlist: list))
        #expect(harness.run("watchlist", "add", "films", "the matrix", "heat", "--pages", "2", "--movie", "603", "--movie", "11") == .success)
        #expect(harness.client.addedEdits == [WatchlistEdit(name: "films", queries: ["the matrix", "heat"], movieIDs: [603, 11], pages: 2)])
        #expect(harness.output.text == "films (1 query, 1 movie)\n  \"the matrix\" (2 pages)\n  movie 603 (not cached yet)\n")
    }

    /// `watchlist ls` showed ids, not titles (issue 13): titles come from the cache only, so a
    /// listing never waits on TMDB; a movie not cached yet says so.
    @Test func listShowsTheCachedTitlesOfMovies() throws {
        let harness = Harness()
        let films = Watchlist(name: "films", queries: [], movieIDs: [603, 11])
        let more = Watchlist(name: "more", queries: [], movieIDs: [603, 129])
        harness.client.watchlistsResult = .success(WatchlistsReply(watchlists: [films, more]))
        harness.client.cachedTitles = [603: "The Matrix", 129: "千と千尋の神隠し"]
        #expect(harness.run("watchlist", "ls") == .success)
        #expect(harness.output.text == """
            films (0 queries, 2 movies)
              The Matrix (movie 603)
              movie 11 (not cached yet)
            more (0 queries, 2 movies)
              The Matrix (movie 603)
              千と千尋の神隠し (movie 129)

            """)
        // Each movie is asked for once, from the cache only.
        #expect(harness.client.movieCalls.map(\.id) == [603, 11, 129])
        #expect(harness.client.movieCalls.allSatisfy { $0.policy == .cacheOnly })
        // --json is the daemon's reply as it is.
        #expect(harness.run("--json", "watchlist", "ls") == .success)
        #expect(harness.client.movieCalls.count == 3)
    }

    @Test func removeAndDeleteAndList() throws {
        let harness = Harness()
        let films = Watchlist(name: "films", queries: [try WatchlistQuery(query: #require(MovieQuery("Heat")), pages: 3)], movieIDs: [])
        harness.client.watchlistsResult = .success(WatchlistsReply(watchlists: [films]))
        #expect(harness.run("watchlist", "rm", "films", "heat") == .success)
        #expect(harness.client.removedEdits == [WatchlistEdit(name: "films", queries: ["heat"])])
        harness.client.watchlistsResult = .success(WatchlistsReply(watchlists: []))
        #expect(harness.run("watchlist", "delete", "films") == .success)
        #expect(harness.client.deletedNames == ["films"])
        #expect(harness.run("watchlist", "ls") == .success)
        #expect(harness.output.text.contains("No watchlists."))
    }

    @Test(arguments: [["watchlist"], ["watchlist", "add", "films"], ["watchlist", "add", "films", "x", "--pages", "0"],
                      ["watchlist", "rm", "films", "x", "--pages", "2"], ["watchlist", "delete"], ["watchlist", "frob", "x"],
                      ["watchlist", "add", "films", "--movie", "abc"]])
    func rejectsBadCommandLines(arguments: [String]) {
        let harness = Harness()
        #expect(harness.run(arguments) == .usage)
        #expect(harness.client.addedEdits.isEmpty)
    }

    /// `watchlist rm` of an entry the list does not have exited 0 silently (issue 28): it says so and
    /// exits 1 (NotFound, as for a watchlist that does not exist), removing the entries that were there.
    @Test func removingWhatIsNotThereSaysSoAndExitsOne() throws {
        let harness = Harness()
        let films = Watchlist(name: "films", queries: [try WatchlistQuery(query: #require(MovieQuery("heat")), pages: 3)], movieIDs: [603])
        harness.client.watchlistsResult = .success(WatchlistsReply(watchlists: [films]))
        #expect(harness.run("watchlist", "rm", "films", "blade runner") == .failure)
        #expect(harness.client.removedEdits.isEmpty)
        #expect(harness.errors.text.contains("watchlist 'films' has no query \"blade runner\"; nothing was removed"), "\(harness.errors.text)")
        #expect(harness.run("watchlist", "rm", "films", "HEAT", "--movie", "11") == .failure)
        #expect(harness.client.removedEdits == [WatchlistEdit(name: "films", queries: ["HEAT"])])
        #expect(harness.errors.text.contains("has no movie 11; the other entries given were removed"), "\(harness.errors.text)")
        let json = Harness()
        json.client.watchlistsResult = .success(WatchlistsReply(watchlists: [films]))
        #expect(json.run("--json", "watchlist", "rm", "films", "--movie", "11") == .failure)
        let object = try JSONValue.parse(Array(json.output.text.utf8))
        #expect(object["error"]?.stringValue == "io.moviesd.Movies.NotFound")
        #expect(object["exitCode"]?.intValue == 1)
        #expect(object["parameters"]?["movieIds"] == .array([.int(11)]))
        let missingList = Harness()
        #expect(missingList.run("watchlist", "rm", "nope", "x") == .failure)
        #expect(missingList.errors.text.contains("there is no watchlist named 'nope'"))
    }

    /// `watchlist ls NAME` was refused with exit 64 (issue 28): it shows that list.
    @Test func listOneWatchlistByName() throws {
        let harness = Harness()
        let films = Watchlist(name: "films", queries: [], movieIDs: [603])
        let more = Watchlist(name: "more", queries: [], movieIDs: [129])
        harness.client.watchlistsResult = .success(WatchlistsReply(watchlists: [films, more]))
        #expect(harness.run("watchlist", "ls", "more") == .success)
        #expect(harness.output.text == "more (0 queries, 1 movie)\n  movie 129 (not cached yet)\n")
        let json = Harness()
        json.client.watchlistsResult = .success(WatchlistsReply(watchlists: [films, more]))
        #expect(json.run("watchlist", "ls", "more", "--json") == .success)
        let object = try JSONValue.parse(Array(json.output.text.utf8))
        #expect(object["watchlists"]?.arrayValue?.map { $0["name"]?.stringValue } == ["more"])
        #expect(harness.run("watchlist", "ls", "none") == .failure)
        #expect(harness.errors.text.contains("there is no watchlist named 'none'"))
    }

    @Test func permissionDeniedExits77() {
        let harness = Harness()
        harness.client.watchlistResult = .failure(.permissionDenied("not allowed"))
        #expect(harness.run("watchlist", "add", "films", "heat") == .noPermission)
    }
}
