import FoundationEssentials
@testable import MoviesCLI
import MoviesDomain
import MoviesWire
import Testing
import Varlink

@Suite struct MoviesCommandLineTests {
    final class Harness {
        let client = MockMoviesClient()
        let output = BufferSink()
        let errors = BufferSink()
        var socketPaths: [String] = []
        var written: [(bytes: [UInt8], path: String)] = []
        var terminal = TerminalCapabilities(isTTY: false, width: 80, usesColor: false)
        var environment = ["XDG_RUNTIME_DIR": "/run/user/1000"]
        /// The files `movies` finds (sockets); none by default.
        var existingFiles: Set<String> = []
        /// The pauses `account login --wait` asked for.
        var pauses: [Double] = []
        /// What went through the pager, and with which command.
        var paged: [(text: String, command: String)] = []
        /// Whether the pager starts.
        var pagerStarts = true
        /// Whether standard error is a terminal.
        var standardErrorIsTerminal = false
        /// The links opened (`show --web`), and why opening fails (`nil`: it works).
        let opened = LockedBox<[String]>([])
        var openFailure: String?
        /// The password database: alice is 1001, bob 1002; uid 1005 has no name.
        var users = LocalUserNames { keys in
            let known: [(name: String, uid: UInt32)] = [("root", 0), ("alice", 1001), ("bob", 1002)]
            return known.filter { keys.contains($0.name) || keys.contains(String($0.uid)) }
        }

        func run(_ arguments: String...) -> ExitCode { run(arguments) }

        /// The caller's uid.
        var uid: UInt32 = 1000

        func run(_ arguments: [String]) -> ExitCode {
            var commandLine = MoviesCommandLine(
                environment: environment,
                uid: uid,
                fileExists: { self.existingFiles.contains($0) },
                makeClient: { path, _ in
                    self.socketPaths.append(path)
                    return self.client
                },
                output: output,
                errors: errors,
                terminal: terminal,
                now: { Fixtures.fetchedAt },
                writeFile: { bytes, path in
                    self.written.append((bytes, path))
                    return nil
                }
            )
            commandLine.pause = { self.pauses.append($0) }
            commandLine.users = users
            commandLine.standardErrorIsTerminal = standardErrorIsTerminal
            let (opened, failure) = (opened, openFailure)
            commandLine.openLink = { link, _ in
                opened.update { $0.append(link) }
                return failure
            }
            commandLine.showInPager = { text, command in
                guard self.pagerStarts else { return false }
                self.paged.append((text, command))
                return true
            }
            return commandLine.run(arguments)
        }
    }

    // MARK: Help, version, usage errors

    @Test func mainHelpDocumentsCommandsAndExitCodes() {
        let harness = Harness()
        #expect(harness.run("--help") == .success)
        for text in ["search", "show", "poster", "recent", "status", "cache", "64", "69", "75", "77", "MOVIESD_SOCKET", "NO_COLOR"] {
            #expect(harness.output.text.contains(text), "\(text)")
        }
        // Each command is listed once, and none as a placeholder ("(coming)" lines outlived their commands).
        let commandLines = harness.output.text.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
        for command in ["search", "show", "poster", "recent", "status", "cache", "watchlist", "refresh"] {
            #expect(commandLines.filter { $0.hasPrefix("  \(command) ") }.count == 1, "\(command)")
        }
        #expect(!harness.output.text.contains("(coming)"))
    }

    @Test(arguments: ["search", "show", "poster", "recent", "status", "cache", "watchlist", "refresh"])
    func everyCommandHasHelpWithExitCodes(command: String) {
        let harness = Harness()
        #expect(harness.run(command, "--help") == .success)
        #expect(harness.output.text.hasPrefix("movies \(command) — "))
        #expect(harness.output.text.contains("Exit codes:"))
        #expect(harness.output.text.contains("75"))
        #expect(harness.socketPaths.isEmpty)  // help never contacts the daemon
    }

    @Test func mainHelpListsEveryCommandOnce() {
        let harness = Harness()
        #expect(harness.run("--help") == .success)
        #expect(!harness.output.text.contains("(coming)"))
        for command in ["watchlist", "refresh"] {
            let lines = harness.output.text.split(separator: "\n").filter { $0.hasPrefix("  \(command) ") }
            #expect(lines.count == 1, "\(command): \(lines)")
        }
    }

    @Test func helpCommandPrintsACommandsHelp() {
        let harness = Harness()
        #expect(harness.run("help", "search") == .success)
        #expect(harness.output.text.hasPrefix("movies search — "))
        let main = Harness()
        #expect(main.run("help") == .success)
        #expect(main.output.text.contains("Commands:"))
        #expect(main.socketPaths.isEmpty && harness.socketPaths.isEmpty)
    }

    @Test(arguments: [
        (["serch", "x"], "did you mean 'search'?"),
        (["stauts"], "did you mean 'status'?"),
        (["search", "x", "--pgae", "2"], "did you mean '--page'?"),
    ])
    func mistypedNamesSuggestTheClosest(arguments: [String], fragment: String) {
        let harness = Harness()
        #expect(harness.run(arguments) == .usage)
        #expect(harness.errors.text.contains(fragment), "\(harness.errors.text)")
    }

    @Test func versionPrintsTheVersion() {
        let harness = Harness()
        #expect(harness.run("--version") == .success)
        #expect(harness.output.text == "movies \(MoviesdRelease.version)\n")
    }

    @Test(arguments: [
        (["search"], "missing QUERY"),
        (["search", "x", "--page", "501"], "--page takes a whole number from 1 to 500"),
        (["search", "x", "--page", "two"], "not 'two'"),
        (["search", "x", "--offline", "--fresh"], "choose only one of --cache-first, --fresh, --offline and --local"),
        (["show", "1", "--offline", "--fresh"], "choose only one of --cache-first, --fresh and --offline"),
        (["search", "x", "--local", "--fresh"], "choose only one of --cache-first, --fresh, --offline and --local"),
        (["search", "x", "--max-stale", "soon"], "--max-stale takes a duration"),
        (["search", "x", "--colour"], "unknown option '--colour'"),
        (["show"], "exactly one movie ID"),
        (["show", "abc"], "positive whole number"),
        (["poster", "603"], "missing -o FILE"),
        (["poster", "not-a-path", "-o", "x.jpg"], "neither a movie ID nor a poster path ('/' followed by a file name"),
        (["poster", "/../../etc/passwd", "-o", "x"], "'/../../etc/passwd' is not a poster path: that is '/' followed by a file name with no '/' or '..' in it"),
        (["poster", "/a/b.jpg", "-o", "x"], "'/a/b.jpg' is not a poster path"),
        (["poster", "/", "-o", "x"], "'/' is not a poster path"),
        (["recent", "--limit", "0"], "--limit takes a whole number"),
        (["recent", "-n0"], "--limit takes a whole number"),
        (["search", "x", "--offline", "--local"], "choose only one of --cache-first, --fresh, --offline and --local"),
        (["search", "x", "--width", "5"], "--width takes a whole number from 20"),
        (["status", "extra"], "takes no arguments"),
        (["cache", "nuke"], "say 'invalidate' or 'purge'"),
        (["cache", "purge"], "choose exactly one of --all"),
        (["cache", "purge", "--all", "--posters"], "choose exactly one of --all"),
        (["frobnicate"], "unknown command 'frobnicate'"),
        ([], "missing COMMAND"),
    ])
    func usageErrorsExit64WithAHint(arguments: [String], fragment: String) {
        let harness = Harness()
        let code = harness.run(arguments)
        #expect(code == .usage)
        #expect(harness.errors.text.contains(fragment), "\(harness.errors.text)")
        #expect(harness.errors.text.contains("--help"))
        #expect(harness.client.searches.isEmpty)
    }

    // MARK: search

    @Test func searchPrintsRowsAndPassesOptions() {
        let harness = Harness()
        harness.client.searchScripts[2] = .init(replies: [Fixtures.search(Fixtures.page(2, of: 3, [Fixtures.movie(603, "The Matrix")]), Fixtures.network)])
        #expect(harness.run("--socket", "/tmp/m.sock", "search", "the", "matrix", "--page", "2", "--offline", "--max-stale", "30d", "--format", "table") == .success)
        #expect(harness.client.searches == [SearchParameters(query: "the matrix", page: 2, policy: .cacheOnly, maxStaleSeconds: 2_592_000)])
        #expect(harness.socketPaths == ["/tmp/m.sock"])
        #expect(harness.output.text.contains("Title      · Year · Rating ·  ID\nThe Matrix · 1999 ·    8.2 · 603"))
        #expect(harness.output.text.hasPrefix("\"the matrix\": 6 results, page 2 of 3 — fresh from TMDB\n"))
    }

    @Test func searchPassesLanguageRegionAndYear() {
        let harness = Harness()
        harness.client.searchScripts[1] = .init(replies: [Fixtures.search(Fixtures.page(1, of: 1, [Fixtures.movie(603, "Matrix")]), Fixtures.network)])
        #expect(harness.run("search", "matrix", "--language", "de-DE", "--region", "gb", "--year=1999") == .success)
        #expect(harness.client.searches == [SearchParameters(query: "matrix", language: "de-DE", region: "GB", year: 1999)])
    }

    @Test(arguments: [
        (["search", "x", "--language", "german"], "--language takes a language tag"),
        (["search", "x", "--region", "GBR"], "--region takes a two-letter country code"),
        (["search", "x", "--year", "99"], "--year takes a whole number from 1874 to 2100"),
        (["show", "603", "--region", "GB"], "unknown option '--region' for 'movies show'; it is an option of 'movies search'"),
        (["show", "603", "--year=1999"], "it is an option of 'movies search'"),
    ])
    func badSearchFiltersAreUsageErrors(arguments: [String], fragment: String) {
        let harness = Harness()
        #expect(harness.run(arguments) == .usage)
        #expect(harness.errors.text.contains(fragment), "\(harness.errors.text)")
        #expect(harness.client.searches.isEmpty && harness.client.movieCalls.isEmpty)
    }

    @Test func showPassesTheLanguage() {
        let harness = Harness()
        _ = harness.run("show", "603", "--language", "fr")
        _ = harness.run("show", "603")
        #expect(harness.client.movieLanguages == ["fr", nil])
    }

    @Test func colorAlwaysColoursEvenAPipeAndNeverNothing() {
        func run(_ arguments: [String], tty: Bool, noColor: Bool = false) -> String {
            let harness = Harness()
            harness.terminal = TerminalCapabilities(isTTY: tty, width: 80, usesColor: tty && !noColor, height: 500)
            harness.client.searchScripts[1] = .init(replies: [Fixtures.search(Fixtures.page(1, of: 1, [Fixtures.movie(603, "The Matrix")]), Fixtures.network)])
            // The table: TSV (piped by default) is never coloured.
            let format = arguments.contains("--json") ? [] : ["--format", "table"]
            #expect(harness.run(["search", "matrix"] + format + arguments) == .success)
            return harness.output.text
        }
        let bold = "\u{1B}[1mThe Matrix"
        #expect(run(["--color=always"], tty: false).contains(bold))
        #expect(run(["--color", "always"], tty: true, noColor: true).contains(bold), "always overrides NO_COLOR")
        #expect(!run([], tty: false).contains("\u{1B}"))
        #expect(!run(["--color=auto"], tty: false).contains("\u{1B}"))
        #expect(run(["--color=auto"], tty: true).contains(bold))
        #expect(!run(["--color=never"], tty: true).contains("\u{1B}[1m"))
        #expect(!run(["--color=always", "--json"], tty: false).contains("\u{1B}"), "JSON is never coloured")
        let harness = Harness()
        #expect(harness.run("search", "x", "--color=sometimes") == .usage)
        #expect(harness.errors.text.contains("--color takes auto, always or never"))
    }

    @Test func policyFlagsMapToPolicies() {
        for (flag, policy) in [("--fresh", FetchPolicy.networkOnly), ("--cache-first", .cacheFirst), ("--offline", .cacheOnly)] {
            let harness = Harness()
            harness.client.searchScripts[1] = .init(replies: [Fixtures.search(Fixtures.page(1, of: 1, []), Fixtures.network)])
            _ = harness.run("search", "x", flag)
            #expect(harness.client.searches.first?.policy == policy)
        }
        let harness = Harness()
        harness.client.searchScripts[1] = .init(replies: [Fixtures.search(Fixtures.page(1, of: 1, []), Fixtures.network)])
        _ = harness.run("search", "x")
        #expect(harness.client.searches.first?.policy == nil)
        // No user daemon in the harness: the system's.
        #expect(harness.socketPaths == ["/run/moviesd/io.moviesd.Movies"])
    }

    @Test func localSearchesOnlyTheCachedMoviesAndSaysHowManyMatched() {
        let harness = Harness()
        let local = Freshness(origin: .localIndex, fetchedAt: Fixtures.fetchedAt, ageSeconds: 3_600, stale: true)
        harness.client.searchScripts[1] = .init(replies: [Fixtures.search(Fixtures.page(1, of: 1, [Fixtures.movie(11, "Star Wars")]), local)])
        #expect(harness.run("search", "wars", "--local", "--format", "table") == .success)
        #expect(harness.client.searches.first?.policy == .localOnly)
        #expect(harness.output.text.contains("— 2 matches among cached movies"), "the page's total: \(harness.output.text)")
        #expect(!harness.output.text.contains("offline"))
        #expect(harness.errors.text.isEmpty)
    }

    @Test func offlineWithNothingCachedForTheQuerySaysTheMatchesAreAmongCachedMovies() {
        let harness = Harness()
        let local = Freshness(origin: .localIndex, fetchedAt: Fixtures.fetchedAt, ageSeconds: 3_600, stale: true, remoteError: "offline")
        let movies = [Fixtures.movie(11, "Star Wars"), Fixtures.movie(12, "Wars of Stars")]
        harness.client.searchScripts[1] = .init(replies: [Fixtures.search(Fixtures.page(1, of: 1, movies), local)])
        #expect(harness.run("search", "wars", "--format", "table") == .success)
        #expect(harness.output.text.contains("offline — 2 matches among cached movies"), "the page's total: \(harness.output.text)")
        #expect(harness.errors.text == "movies: warning: showing matches among cached movies, TMDB could not be asked: offline\n")
    }

    @Test func staleCachedDataAfterAnOutageExitsZero() {
        let harness = Harness()
        let cached = Fixtures.search(Fixtures.page(1, of: 1, [Fixtures.movie(1, "Kept")]), Fixtures.cached(age: 3 * 86_400, stale: true))
        harness.client.searchScripts[1] = .init(replies: [cached], error: .remoteUnavailable("offline"))
        #expect(harness.run("search", "x", "--format", "table") == .success)
        #expect(harness.output.text.contains("offline — showing results cached 3 days ago"))
        #expect(harness.output.text.contains("Kept"))
        // Stale data is told apart: a warning on stderr (it used to be silent), none with --quiet.
        #expect(harness.errors.text == "movies: warning: showing cached data, TMDB could not be asked: offline\n")
        let quiet = Harness()
        quiet.client.searchScripts[1] = .init(replies: [cached], error: .remoteUnavailable("offline"))
        #expect(quiet.run("search", "x", "--quiet") == .success)
        #expect(quiet.errors.text.isEmpty)
    }

    @Test func failStaleExits75OnCachedDataAfterAnOutage() {
        let harness = Harness()
        let cached = Fixtures.search(Fixtures.page(1, of: 1, [Fixtures.movie(1, "Kept")]), Fixtures.cached(age: 60, stale: false))
        harness.client.searchScripts[1] = .init(replies: [cached], error: .remoteUnavailable("offline"))
        #expect(harness.run("search", "x", "--fail-stale", "-q") == .temporaryFailure)
        #expect(harness.output.text.contains("Kept"))
        #expect(harness.errors.text.isEmpty)
    }

    @Test(arguments: [
        (ClientError.daemonUnreachable(socketPath: "/s", reason: "no socket there"), "io.moviesd.cli.DaemonUnreachable", Int64(69)),
        (.remoteUnavailable("timed out"), "io.moviesd.Movies.RemoteUnavailable", 75),
        (.notFound(id: 7), "io.moviesd.Movies.NotFound", 1),
        (.permissionDenied("no"), "org.varlink.service.PermissionDenied", 77),
    ])
    func jsonPrintsTheFinalErrorOnStdout(error: ClientError, name: String, code: Int64) throws {
        let harness = Harness()
        harness.client.failEverything = error
        #expect(harness.run("search", "x", "--json").rawValue == Int32(code))
        let object = try JSONValue.parse(Array(harness.output.text.utf8))
        #expect(object["error"]?.stringValue == name)
        #expect(object["exitCode"]?.intValue == code)
        #expect(object["message"]?.stringValue == error.message)
        #expect(object["parameters"]?.objectValue != nil)
        #expect(harness.output.text.hasSuffix("}\n"))
    }

    @Test(arguments: [
        (ClientError.daemonUnreachable(socketPath: "/run/user/1000/moviesd/io.moviesd.Movies", reason: "no socket there"), ExitCode.unavailable),
        (.permissionDenied("socket"), .noPermission),
        (.remoteUnavailable("timed out"), .temporaryFailure),
        (.notCached("cache only"), .temporaryFailure),
        (.remoteRejected("Invalid API key"), .failure),
        (.other("storage"), .failure),
    ])
    func searchErrorsPrintOneLineAndExitWithTheirCode(error: ClientError, code: ExitCode) {
        let harness = Harness()
        harness.client.failEverything = error
        #expect(harness.run("search", "x") == code)
        #expect(harness.errors.text == "movies: \(error.message)\n")
        #expect(harness.output.text.isEmpty)
    }

    // MARK: show, poster, recent, status, cache

    @Test func showPrintsDetails() {
        let harness = Harness()
        harness.client.movieScript = .init(replies: [MovieReply(movie: Fixtures.matrix, freshness: Fixtures.network)])
        #expect(harness.run("show", "603") == .success)
        #expect(harness.output.text.hasPrefix("The Matrix\n"))
        #expect(harness.output.text.contains("136 min"))
    }

    @Test func showNotFoundExitsOne() {
        let harness = Harness()
        harness.client.movieScript = .init(replies: [], error: .notFound(id: 999))
        #expect(harness.run("show", "999") == .failure)
        #expect(harness.errors.text.contains("no movie with id 999"))
    }

    @Test func posterByIDLooksUpThePathAndWritesDecodedBytes() {
        let harness = Harness()
        harness.client.movieScript = .init(replies: [MovieReply(movie: Fixtures.matrix, freshness: Fixtures.network)])
        harness.client.posterResult = .success(PosterReply(mimeType: "image/jpeg", base64: "/9j/4A==", width: 500, freshness: Fixtures.network))
        #expect(harness.run("poster", "603", "--width", "480", "-o", "m.jpg") == .success)
        #expect(harness.client.movieCalls.first?.policy == .cacheFirst)
        #expect(harness.client.posterCalls.first?.path == "/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg")
        #expect(harness.client.posterCalls.first?.width == 480)
        #expect(harness.written.first?.bytes == [0xFF, 0xD8, 0xFF, 0xE0])
        #expect(harness.written.first?.path == "m.jpg")
        #expect(harness.output.text.contains("Saved /f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg (image/jpeg, 500 px"))
    }

    @Test func posterToStdoutPrintsNothingElse() {
        let harness = Harness()
        harness.client.posterResult = .success(PosterReply(mimeType: "image/png", base64: "iVBORw==", width: 0, freshness: Fixtures.network))
        #expect(harness.run("poster", "/abc.png", "-o", "-") == .success)
        #expect(harness.written.first?.path == "-")
        #expect(harness.output.text.isEmpty)
    }

    /// `recent -n3` was refused (issue 28): a short option takes its value attached, as getopt does.
    @Test func recentTakesAnAttachedShortValue() {
        let harness = Harness()
        #expect(harness.run("recent", "-n3") == .success)
        #expect(harness.run("recent", "-n", "4") == .success)
        #expect(harness.client.recentLimits == [3, 4])
    }

    /// `search --local` with no match exited 75 "when the network is back" (issue 28): no match among
    /// the cached movies is an answer: exit 0, saying so; with --json an empty page from the local index.
    @Test func localSearchWithNoMatchIsAnAnswer() throws {
        let harness = Harness()
        harness.client.searchScripts[1] = .init(replies: [], error: .notCached("no cached movie matches"))
        #expect(harness.run("search", "--local", "zzqx", "--format", "table") == .success)
        #expect(harness.output.text == "No matches for \"zzqx\" in the local index of cached movies\n")
        #expect(harness.errors.text.isEmpty)
        let piped = Harness()
        piped.client.searchScripts[1] = .init(replies: [], error: .notCached("no cached movie matches"))
        #expect(piped.run("search", "--local", "zzqx") == .success)
        #expect(piped.output.text.isEmpty, "piped: no records, and nothing else")
        let json = Harness()
        json.client.searchScripts[1] = .init(replies: [], error: .notCached("no cached movie matches"))
        #expect(json.run("search", "--local", "zzqx", "--json") == .success)
        let answer = try JSONValue.parse(Array(json.output.text.utf8))
        #expect(answer["page"]?["totalResults"]?.intValue == 0)
        #expect(answer["freshness"]?["origin"]?.stringValue == "local_index")
        // --offline with nothing cached is still 75: that one waits for the network.
        let offline = Harness()
        offline.client.searchScripts[1] = .init(replies: [], error: .notCached("nothing cached"))
        #expect(offline.run("search", "--offline", "zzqx") == .temporaryFailure)
    }

    /// `poster -o -` on a terminal wrote image bytes into it (issue 28): refused with a hint, as curl does.
    @Test func posterToATerminalIsRefused() {
        let harness = Harness()
        harness.terminal = TerminalCapabilities(isTTY: true, width: 80, usesColor: false)
        harness.client.posterResult = .success(PosterReply(mimeType: "image/png", base64: "iVBORw==", width: 0, freshness: Fixtures.network))
        #expect(harness.run("poster", "/abc.png", "-o", "-") == .usage)
        #expect(harness.written.isEmpty)
        #expect(harness.client.posterCalls.isEmpty)
        #expect(harness.errors.text.contains("binary output can mess up your terminal; use -o FILE, or pipe it"))
    }

    /// `poster -o FILE --json` printed the image as base64 (issue 28): it prints the file and its size.
    @Test func posterJSONNamesTheFileNotTheBytes() throws {
        let harness = Harness()
        harness.client.posterResult = .success(PosterReply(mimeType: "image/png", base64: "iVBORw==", width: 0, freshness: Fixtures.network))
        #expect(harness.run("poster", "/abc.png", "-o", "p.png", "--json") == .success)
        let answer = try JSONValue.parse(Array(harness.output.text.utf8))
        #expect(answer["base64"] == nil)
        #expect(answer["file"]?.stringValue == "p.png")
        #expect(answer["bytes"]?.intValue == 4)
        #expect(answer["mimeType"]?.stringValue == "image/png")
        let both = Harness()
        #expect(both.run("poster", "/abc.png", "-o", "-", "--json") == .usage)
        #expect(both.written.isEmpty)
    }

    @Test func recentListsQueries() {
        let harness = Harness()
        harness.client.recentResult = .success(RecentQueriesReply(queries: ["matrix", "千と千尋"]))
        #expect(harness.run("recent", "--limit", "5") == .success)
        #expect(harness.output.text == "matrix\n千と千尋\n")
        #expect(harness.client.recentLimits == [5])
    }

    @Test func statusAndRecentAreNeverCutPipedOrOnATerminal() {
        let longError = "connection refused by " + String(repeating: "a-very-long-host-name.", count: 8) + "example"
        let longQuery = String(repeating: "the lord of the rings ", count: 6) + "extended"
        for (tty, width) in [(false, 40), (true, 40), (true, 80), (true, 200)] {
            let harness = Harness()
            harness.terminal = TerminalCapabilities(isTTY: tty, width: width, usesColor: false)
            harness.client.statusResult = .success(StatusReply(
                version: "1.2.3", uptimeSeconds: 5,
                remote: RemoteStatus(state: .offline, since: nil, lastError: longError, consecutiveFailures: 1),
                cache: CacheStats(entries: 0, bytes: 0, staleEntries: 0, pinnedEntries: 0, byteBudget: 1_048_576),
                lastRefresh: nil
            ))
            harness.client.recentResult = .success(RecentQueriesReply(queries: [longQuery]))
            #expect(harness.run("status") == .success)
            let status = harness.output.text
            #expect(harness.run("recent") == .success)
            #expect(harness.output.text.contains(longQuery), "tty=\(tty)")
            #expect(!status.contains("…"), "nothing is cut: \(status)")
            if tty {
                // On a terminal a long value wraps under itself, within the width.
                for line in status.split(separator: "\n") { #expect(DisplayWidth.of(line) <= width, "\(line)") }
                // Every character is there, in order (a word longer than the column breaks inside).
                let characters = status.filter { !$0.isWhitespace }
                #expect(characters.contains(("offline: " + longError).filter { !$0.isWhitespace }), "\(status)")
                #expect(characters.contains("Cache:0entries,0Bof1.0MiB(0stale,0pinned)"), "\(status)")
            } else {
                #expect(status.contains("Remote:       offline: " + longError + "\n"), "piped: one whole line: \(status)")
            }
        }
    }

    @Test func statusShowsRemoteStateAndCache() {
        let harness = Harness()
        let since = Fixtures.fetchedAt.addingTimeInterval(-7_200)
        harness.client.statusResult = .success(StatusReply(
            version: "1.2.3", uptimeSeconds: 90_000,
            remote: RemoteStatus(state: .offline, since: since, lastError: "connection refused", consecutiveFailures: 3),
            cache: CacheStats(entries: 42, bytes: 3 * 1_048_576, staleEntries: 2, pinnedEntries: 1, byteBudget: 512 * 1_048_576),
            lastRefresh: nil
        ))
        #expect(harness.run("status") == .success)
        let text = harness.output.text
        #expect(text.contains("Version:      1.2.3"))
        #expect(text.contains("Uptime:       1 day 1 h"))
        #expect(text.contains("offline since 2026-11-18 09:06 UTC (2 h ago): connection refused"))
        #expect(text.contains("42 entries, 3.0 MiB of 512.0 MiB (2 stale, 1 pinned)"))
        #expect(text.contains("Last refresh: never"))
        // One entry is an entry ("1 entries" was what a new user saw after the demo).
        harness.client.statusResult = .success(StatusReply(
            version: "1.2.3", uptimeSeconds: 0, remote: RemoteStatus(state: .online),
            cache: CacheStats(entries: 1, bytes: 13_824, staleEntries: 0, pinnedEntries: 0, byteBudget: 512 * 1_048_576),
            lastRefresh: nil
        ))
        #expect(harness.run("status") == .success)
        #expect(harness.output.text.contains("Cache:        1 entry, 13.5 KiB of 512.0 MiB (0 stale, 0 pinned)"))
    }

    @Test func statusSaysWhichDaemonAnswered() {
        func harness(existing: Set<String>) -> Harness {
            let harness = Harness()
            harness.existingFiles = existing
            harness.client.statusResult = .success(StatusReply(
                version: "1.2.3", uptimeSeconds: 0, remote: RemoteStatus(state: .online),
                cache: CacheStats(entries: 0, bytes: 0, staleEntries: 0, pinnedEntries: 0, byteBudget: 1_048_576), lastRefresh: nil))
            return harness
        }
        let system = harness(existing: ["/run/moviesd/io.moviesd.Movies"])
        #expect(system.run("status") == .success)
        #expect(system.output.text.hasPrefix("Daemon:       system service, /run/moviesd/io.moviesd.Movies\n"), "\(system.output.text)")
        let userPath = "/run/user/1000/moviesd/io.moviesd.Movies"
        let user = harness(existing: ["/run/moviesd/io.moviesd.Movies", userPath])
        #expect(user.run("status") == .success)
        #expect(user.output.text.hasPrefix("Daemon:       user service (yours), \(userPath)\n"), "\(user.output.text)")
        #expect(user.socketPaths == [userPath])
        // The JSON is the daemon's reply as it came: no client-side line in it.
        let json = harness(existing: [userPath])
        #expect(json.run("status", "--json") == .success)
        #expect(json.output.text.contains("\"version\""))
        #expect(!json.output.text.contains("user service"))
    }

    @Test func purgingWatchlistEntriesSaysSoAndHowToGetThemBack() {
        let harness = Harness()
        harness.client.cacheResult = .success(CacheMaintenanceReply(entries: 12, pinned: 5))
        #expect(harness.run("cache", "purge", "--all") == .success)
        #expect(harness.output.text == """
            Purged 12 entries; 5 of them were kept for watchlists and are no longer available offline.
            Run 'movies refresh' to fetch them again.

            """)
        #expect(CacheCommand.summary(.purge, CacheMaintenanceReply(entries: 1, pinned: 1))
            == ["Purged 1 entry; 1 of them was kept for a watchlist and is no longer available offline.", "Run 'movies refresh' to fetch it again."])
        #expect(CacheCommand.summary(.purge, CacheMaintenanceReply(entries: 4, pinned: 0)) == ["Purged 4 entries."])
    }

    @Test func cacheInvalidateAndPurge() {
        let harness = Harness()
        harness.client.cacheResult = .success(CacheMaintenanceReply(entries: 3))
        #expect(harness.run("cache", "invalidate", "--query", "matrix") == .success)
        #expect(harness.run("cache", "purge", "--movie", "603") == .success)
        #expect(harness.output.text == "Invalidated 3 entries.\nPurged 3 entries.\n")
        #expect(harness.client.cacheCalls.map(\.0) == [.invalidate, .purge])
        #expect(harness.client.cacheCalls.map(\.1) == [.query("matrix"), .movie(id: 603)])
    }

    @Test func cacheDeniedExits77() {
        let harness = Harness()
        harness.client.cacheResult = .failure(.permissionDenied("moviesd refuses Purge to this user"))
        #expect(harness.run("cache", "purge", "--all") == .noPermission)
        #expect(harness.errors.text.contains("permission denied"))
    }
}
