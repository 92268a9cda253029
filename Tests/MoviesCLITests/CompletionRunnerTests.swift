@testable import MoviesCLI
import MoviesDomain
import MoviesWire
import Testing

/// `movies __complete` (issue 28, item 5): the shell scripts' one source of commands, options,
/// values, watchlist names and recent queries, read from the command table and the daemon.
@Suite struct CompletionRunnerTests {
    typealias Harness = MoviesCommandLineTests.Harness

    /// The candidates (without descriptions) `__complete` prints for `words`, and its directive.
    static func complete(_ words: String..., harness: Harness = Harness()) -> (directive: String, words: [String]) {
        #expect(harness.run(["__complete", "--"] + words) == .success)
        #expect(harness.errors.text.isEmpty, "nothing on standard error: \(harness.errors.text)")
        let lines = harness.output.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        return (lines.first ?? "", lines.dropFirst().map { String($0.split(separator: "\t").first ?? "") })
    }

    @Test func commandsAndHelpComeFromTheCommandTable() {
        let all = Self.complete("")
        #expect(all.directive == ":words")
        #expect(all.words == MoviesCommandLine.commandSpecs.map(\.name) + ["help"])
        #expect(Self.complete("wa").words == ["watchlist"])
        #expect(Self.complete("help", "").words == all.words.filter { $0 != "help" })
        #expect(Self.complete("help", "re").words == ["recent", "refresh"])
        #expect(Self.complete("help", "search", "").words.isEmpty)
    }

    @Test func optionsOfTheCommandAndGlobalOnes() {
        let search = Self.complete("search", "-").words
        for option in ["--page", "--language", "--region", "--year", "--local", "--max-stale", "-q", "--quiet", "--fail-stale", "--color", "--no-pager", "--json"] {
            #expect(search.contains(option), "\(option)")
        }
        #expect(!search.contains("--pages"), "watchlist's")
        let show = Self.complete("show", "603", "--").words
        #expect(show.contains("--language") && !show.contains("--region") && !show.contains("--year"))
        #expect(Self.complete("refresh", "--q").words == ["--quiet"])
        #expect(Self.complete("--fail").words == ["--fail-stale"])
    }

    @Test func subcommandsAndOptionValues() {
        #expect(Self.complete("watchlist", "").words == ["add", "rm", "ls", "delete"])
        #expect(Self.complete("cache", "p").words == ["purge"])
        #expect(Self.complete("account", "").words == ["login", "logout", "show", "watchlist", "favorite", "rate", "unrate"])
        #expect(Self.complete("account", "favorite", "").words == ["add", "rm"])
        #expect(Self.complete("search", "--color", "").words == ["auto", "always", "never"])
        #expect(Self.complete("--color=al").words == ["--color=always"])
        #expect(Self.complete("poster", "603", "-o", "").directive == ":files")
        #expect(Self.complete("--socket", "").directive == ":files")
        #expect(Self.complete("search", "--page", "").words.isEmpty)
        #expect(Self.complete("frobnicate", "").words.isEmpty)
    }

    @Test func watchlistNamesAndRecentQueriesComeFromTheDaemon() throws {
        let harness = Harness()
        harness.client.watchlistsResult = .success(WatchlistsReply(watchlists: [
            Watchlist(name: "films", queries: [try WatchlistQuery(query: try #require(MovieQuery("the matrix")), pages: 3)]),
            Watchlist(name: "family"),
        ]))
        harness.client.recentResult = .success(RecentQueriesReply(queries: ["star wars", "matrix"]))
        #expect(Self.complete("watchlist", "rm", "f", harness: harness).words == ["films", "family"])
        #expect(Self.complete("refresh", "fi", harness: Self.copy(harness)).words == ["films"])
        #expect(Self.complete("watchlist", "rm", "films", "", harness: Self.copy(harness)).words == ["the matrix"])
        #expect(Self.complete("watchlist", "add", "films", "st", harness: Self.copy(harness)).words == ["star wars"])
        #expect(Self.complete("search", "", harness: Self.copy(harness)).words == ["star wars", "matrix"])
        #expect(Self.complete("cache", "invalidate", "--query", "m", harness: Self.copy(harness)).words == ["matrix"])
    }

    /// `--owner USER|UID` completes with the local users (the shell's own completion), and then a
    /// watchlist name with that user's lists: root's to ask for (every user's), nobody else's.
    @Test func ownerCompletesUsersThenThatUsersLists() {
        #expect(Self.complete("refresh", "--owner", "").directive == ":users")
        #expect(Self.complete("watchlist", "rm", "--owner", "al").directive == ":users")
        #expect(Self.complete("watchlist", "ls", "--all").words == ["--all-users"])
        let harness = Harness()
        harness.client.watchlistsResult = .success(WatchlistsReply(watchlists: [
            Watchlist(name: "shared"), Watchlist(name: "films", owner: .user(LocalUser(uid: 1001))),
            Watchlist(name: "noir", owner: .user(LocalUser(uid: 1002))),
        ]))
        #expect(Self.complete("watchlist", "delete", "--owner", "alice", "", harness: harness).words == ["films"])
        #expect(harness.client.watchlistsAllUsers == [true])
        #expect(Self.complete("refresh", "--owner=1002", "", harness: Self.copy(harness)).words == ["noir"])
        #expect(Self.complete("refresh", "--owner", "nosuch", "", harness: Self.copy(harness)).words.isEmpty)
    }

    @Test func aDaemonThatCannotAnswerLeavesOnlyStaticCandidatesAndNoErrors() {
        let harness = Harness()
        harness.client.watchlistsResult = .failure(.daemonUnreachable(socketPath: "/nowhere", reason: "no socket there"))
        harness.client.recentResult = .failure(.daemonUnreachable(socketPath: "/nowhere", reason: "no socket there"))
        let result = Self.complete("watchlist", "ls", "", harness: harness)
        #expect(result.directive == ":words")
        #expect(result.words.isEmpty)
    }

    @Test func theSocketGivenOnTheCommandLineIsAsked() {
        let harness = Harness()
        _ = Self.complete("--socket", "/tmp/other.sock", "refresh", "", harness: harness)
        #expect(harness.socketPaths == ["/tmp/other.sock"])
    }

    @Test func itIsHiddenFromHelp() {
        let harness = Harness()
        #expect(harness.run("--help") == .success)
        #expect(!harness.output.text.contains("__complete"))
        #expect(harness.run("__complet") == .usage, "not a command to suggest")
        #expect(!harness.errors.text.contains("__complete"))
    }

    /// A fresh harness with `harness`'s scripted replies.
    static func copy(_ harness: Harness) -> Harness {
        let copy = Harness()
        copy.client.watchlistsResult = harness.client.watchlistsResult
        copy.client.recentResult = harness.client.recentResult
        return copy
    }
}

/// Issue 46: descriptions cut at "e.g."; zsh sorted recent queries alphabetically; no ids after
/// `show` or `--movie`.
@Suite struct CompletionRunnerIssue46Tests {
    typealias Harness = MoviesCommandLineTests.Harness

    /// The lines `__complete` prints for `words`.
    static func lines(_ words: String..., harness: Harness = Harness()) -> [String] {
        #expect(harness.run(["__complete", "--"] + words) == .success)
        return harness.output.text.split(separator: "\n").map(String.init)
    }

    @Test func aDescriptionIsCutAtTheEndOfItsFirstSentenceNotAtEG() {
        let lines = Self.lines("search", "--max-")
        #expect(lines == [":words", "--max-stale\tAccept cached results up to this old, e.g. 30d, 6h, 90m, 45s"])
        #expect(CompletionCandidate("x", description: "One (e.g. two). Three.").description == "One (e.g. two)")
        #expect(CompletionCandidate("x", description: "Fit, i.e. cut. Rest.").description == "Fit, i.e. cut")
        #expect(CompletionCandidate("x", description: "Ends here. And more.").description == "Ends here")
    }

    @Test func recentQueriesKeepTheirOrderNewestFirst() {
        let harness = Harness()
        harness.client.recentResult = .success(RecentQueriesReply(queries: ["zodiac", "alien", "matrix"]))
        #expect(Self.lines("search", "", harness: harness) == [":ordered", "zodiac\trecent search", "alien\trecent search", "matrix\trecent search"])
        #expect(Self.lines("search", "--") .first == ":words", "options: the shell may sort them")
    }

    @Test func idsAfterShowAreTheNewestSearchsMoviesThenTheWatchlistsWithTitles() throws {
        let harness = Harness()
        harness.client.recentResult = .success(RecentQueriesReply(queries: ["matrix", "alien"]))
        harness.client.searchScripts[1] = .init(replies: [Fixtures.search(Fixtures.page(1, of: 1, [Fixtures.movie(603, "The Matrix"), Fixtures.movie(604, "The Matrix Reloaded", year: "2003")]), Fixtures.cached(age: 60))])
        harness.client.watchlistsResult = .success(WatchlistsReply(watchlists: [Watchlist(name: "noir", movieIDs: [1091, 603, 999])]))
        harness.client.cachedTitles = [1091: "The Third Man"]
        let lines = Self.lines("show", "", harness: harness)
        #expect(lines.first == ":ordered")
        #expect(Array(lines.dropFirst()) == [
            "603\tThe Matrix (1999), in \"matrix\"", "604\tThe Matrix Reloaded (2003), in \"matrix\"",
            "1091\tThe Third Man (1999), in watchlist noir", "999\tin watchlist noir",
        ])
        #expect(harness.client.searches.map(\.policy) == [.cacheOnly], "never TMDB")
        #expect(harness.client.movieCalls.allSatisfy { $0.policy == .cacheOnly })
    }

    @Test func idsAfterMovieAndPosterToo() {
        let harness = Harness()
        harness.client.watchlistsResult = .success(WatchlistsReply(watchlists: [Watchlist(name: "noir", movieIDs: [1091])]))
        #expect(Self.lines("watchlist", "add", "noir", "--movie", "1", harness: harness) == [":ordered", "1091\tin watchlist noir"])
        let poster = Harness()
        poster.client.watchlistsResult = harness.client.watchlistsResult
        #expect(Self.lines("poster", "", harness: poster) == [":ordered", "1091\tin watchlist noir"])
        #expect(Self.lines("show", "603", "").count == 1, "one id only")
    }
}
