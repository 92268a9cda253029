import FoundationEssentials
@testable import MoviesCLI
import MoviesDomain
import MoviesWire
import Testing

/// Issue 46: a user could not make `--cache-first`, a language or a region their default.
/// `~/.config/movies/movies.conf` (`$XDG_CONFIG_HOME`, `$MOVIES_CONFIG`) in moviesd.conf's syntax;
/// flags win; a bad file is an error naming the file and line, with "did you mean".
@Suite struct ClientConfigurationFileTests {
    typealias Harness = MoviesCommandLineTests.Harness

    /// A directory of its own for one test's files, removed by `remove()`.
    struct Directory {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("movies-conf-\(UUID().uuidString.prefix(8))").path

        /// Writes `text` to `name` under the directory (creating the folders); its path.
        func write(_ text: String, to name: String = "movies/movies.conf") throws -> String {
            let file = path + "/" + name
            try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: file).deletingLastPathComponent().path, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            return file
        }

        func remove() { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Nothing cached under an offline policy: the flag's error says to drop the flag; the
    /// file's says the policy is movies.conf's (the command line named none).
    @Test func notCachedSaysWhereTheOfflinePolicyCameFrom() throws {
        let directory = Directory()
        defer { directory.remove() }
        _ = try directory.write("[Search]\nPolicy=offline\n")
        func harness(configured: Bool) -> Harness {
            let harness = Harness()
            if configured { harness.environment["XDG_CONFIG_HOME"] = directory.path }
            let error = ClientError.notCached("nothing cached for this request and the policy forbids the network")
            harness.client.movieScript = .init(replies: [], error: error)
            harness.client.searchScripts[1] = .init(replies: [], error: error)
            return harness
        }
        for arguments in [["show", "603"], ["search", "zzz"]] {
            let file = harness(configured: true)
            #expect(file.run(arguments) == .temporaryFailure)
            #expect(file.errors.text.contains("the offline policy (Policy=offline in movies.conf's [Search]) does not ask TMDB; run it with --cache-first or --fresh"), "\(file.errors.text)")
            let flag = harness(configured: false)
            #expect(flag.run(arguments + ["--offline"]) == .temporaryFailure)
            #expect(flag.errors.text.hasSuffix("--offline does not ask TMDB; run it without --offline to ask TMDB\n"), "\(flag.errors.text)")
            #expect(!flag.errors.text.contains("movies.conf"))
        }
    }

    @Test func thePathFollowsXDGAndMoviesConfig() {
        #expect(ClientConfigurationFile.path(environment: ["HOME": "/home/al"]) == "/home/al/.config/movies/movies.conf")
        #expect(ClientConfigurationFile.path(environment: ["HOME": "/home/al", "XDG_CONFIG_HOME": "/cfg/"]) == "/cfg/movies/movies.conf")
        #expect(ClientConfigurationFile.path(environment: ["HOME": "/home/al", "XDG_CONFIG_HOME": "relative"]) == "/home/al/.config/movies/movies.conf", "ignored, as the XDG specification says")
        #expect(ClientConfigurationFile.path(environment: ["HOME": "/home/al", "MOVIES_CONFIG": "/etc/x.conf"]) == "/etc/x.conf")
        #expect(ClientConfigurationFile.path(environment: ["HOME": "/home/al", "MOVIES_CONFIG": ""]) == nil)
        #expect(ClientConfigurationFile.path(environment: [:]) == nil)
    }

    @Test func searchAndShowTakeTheFilesDefaultsAndFlagsWin() throws {
        let directory = Directory()
        defer { directory.remove() }
        _ = try directory.write("""
            # my defaults
            [Search]
            Policy = cache-first
            Language=de-DE
            Region=gb

            [Output]
            Color=never
            """)
        func harness() -> Harness {
            let harness = Harness()
            harness.environment["XDG_CONFIG_HOME"] = directory.path
            harness.client.searchScripts[1] = .init(replies: [Fixtures.search(Fixtures.page(1, of: 1, [Fixtures.movie(603, "The Matrix")]), Fixtures.network)])
            return harness
        }
        let configured = harness()
        #expect(configured.run("search", "matrix") == .success)
        #expect(configured.client.searches == [SearchParameters(query: "matrix", policy: .cacheFirst, language: "de-DE", region: "GB")])
        let flags = harness()
        #expect(flags.run("search", "matrix", "--fresh", "--language", "fr", "--region", "US") == .success)
        #expect(flags.client.searches == [SearchParameters(query: "matrix", policy: .networkOnly, language: "fr", region: "US")])
        let show = harness()
        _ = show.run("show", "603")
        #expect(show.client.movieCalls.map(\.policy) == [.cacheFirst])
        #expect(show.client.movieLanguages == ["de-DE"])
        let colour = harness()
        colour.terminal = TerminalCapabilities(isTTY: true, width: 80, usesColor: true, height: 500)
        #expect(colour.run("search", "matrix") == .success)
        #expect(!colour.output.text.contains("\u{1B}[1m"), "Color=never: no bold")
        let always = harness()
        always.terminal = colour.terminal
        #expect(always.run("search", "matrix", "--color=always") == .success)
        #expect(always.output.text.contains("\u{1B}[1m"), "--color wins")
    }

    @Test func anEmptyValueResetsAndPolicyDefaultIsTheDaemons() throws {
        let configuration = try ClientConfigurationFile.parse("[Search]\nPolicy=offline\nPolicy=default\nLanguage=fr\nLanguage=\n", path: "m.conf")
        #expect(configuration == ClientConfiguration())
    }

    @Test func noFileIsNoSettings() throws {
        let directory = Directory()
        defer { directory.remove() }
        #expect(try ClientConfigurationFile.load(path: directory.path + "/absent.conf") == ClientConfiguration())
        #expect(try ClientConfigurationFile.load(environment: ["HOME": directory.path]) == ClientConfiguration(), "no default file")
        #expect(try ClientConfigurationFile.load(environment: ["HOME": directory.path, "MOVIES_CONFIG": ""]) == ClientConfiguration())
    }

    @Test func aFileMoviesConfigNamesMustExist() throws {
        let directory = Directory()
        defer { directory.remove() }
        let missing = directory.path + "/movies.cnf"
        do {
            _ = try ClientConfigurationFile.load(environment: ["HOME": directory.path, "MOVIES_CONFIG": missing])
            Issue.record("a missing file MOVIES_CONFIG names was taken as no settings")
        } catch {
            #expect(error.path == missing)
            #expect(error.reason == "MOVIES_CONFIG names this file, and there is none")
            #expect(error.text == "movies: \(missing): MOVIES_CONFIG names this file, and there is none\nPoint MOVIES_CONFIG at your movies.conf, or set it empty (MOVIES_CONFIG=) to read none.\n")
        }
        _ = try directory.write("[Search]\nPolicy=offline\n", to: "movies.cnf")
        #expect(try ClientConfigurationFile.load(environment: ["HOME": directory.path, "MOVIES_CONFIG": missing]).search.policy == .cacheOnly)
        // A path through a file is no file either, said as such when named.
        #expect(try ClientConfigurationFile.load(path: missing + "/movies.conf") == ClientConfiguration())
        #expect(throws: ClientConfigurationError(path: missing + "/movies.conf", line: nil, reason: "cannot read the configuration file: Not a directory")) {
            try ClientConfigurationFile.load(environment: ["HOME": directory.path, "MOVIES_CONFIG": missing + "/movies.conf"])
        }
        // Every command stops with 78 and says so, in --json too; the daemon is not asked.
        let harness = Harness()
        harness.environment["MOVIES_CONFIG"] = directory.path + "/absent.conf"
        #expect(harness.run("status") == .configuration)
        #expect(harness.errors.text == "movies: \(directory.path)/absent.conf: MOVIES_CONFIG names this file, and there is none\nPoint MOVIES_CONFIG at your movies.conf, or set it empty (MOVIES_CONFIG=) to read none.\n")
        #expect(harness.socketPaths.isEmpty)
        let json = Harness()
        json.environment["MOVIES_CONFIG"] = directory.path + "/absent.conf"
        #expect(json.run("search", "x", "--json") == .configuration)
        #expect(json.output.text.contains("\"message\":\"MOVIES_CONFIG names this file, and there is none\""), "\(json.output.text)")
    }

    @Test(arguments: [
        ("[Search]\nPolicy=cache-first\nPolcy=fresh\n", 3, "unknown key 'Polcy' in section [Search]; did you mean 'Policy'? the keys of [Search] are Policy, Language, Region"),
        ("[Serach]\nPolicy=fresh\n", 1, "unknown section [Serach]; did you mean [Search]? the sections are [Search], [Output]"),
        ("[Search]\nPolicy=cachefirst\n", 2, "invalid value 'cachefirst' for Policy in section [Search]: expected default, cache-first, fresh or offline; did you mean 'cache-first'?"),
        ("[Search]\nRegion=Britain\n", 2, "invalid value 'Britain' for Region in section [Search]: expected a two-letter country code"),
        ("Policy=fresh\n", 1, "key 'Policy' is outside of any section (add [Search] above it)"),
        ("[Search]\nColor=never\n", 2, "Color is a key of [Output], not of [Search]"),
        ("[Search\n", 1, "malformed section header '[Search' (expected [Section])"),
        ("[Search]\njust words\n", 2, "expected 'Key=Value', '[Section]' or a comment, got 'just words'"),
    ])
    func aBadFileIsAnErrorNamingTheFileAndLine(contents: String, line: Int, reason: String) {
        #expect {
            try ClientConfigurationFile.parse(contents, path: "/home/al/.config/movies/movies.conf")
        } throws: { error in
            guard let error = error as? ClientConfigurationError else { return false }
            return error.line == line && error.reason.hasPrefix(reason)
                && error.text.hasPrefix("movies: /home/al/.config/movies/movies.conf:\(line): \(reason)")
        }
    }

    @Test func everyCommandStopsOnABadFileWithExitStatus78() throws {
        let directory = Directory()
        defer { directory.remove() }
        let file = try directory.write("[Search]\nPolcy=cache-first\n", to: "bad.conf")
        let harness = Harness()
        harness.environment["MOVIES_CONFIG"] = file
        #expect(harness.run("status") == .configuration)
        #expect(harness.errors.text.hasPrefix("movies: \(file):2: unknown key 'Polcy' in section [Search]; did you mean 'Policy'?"))
        #expect(harness.socketPaths.isEmpty, "the daemon is not asked")
        let json = Harness()
        json.environment["MOVIES_CONFIG"] = file
        #expect(json.run("search", "x", "--json") == .configuration)
        #expect(json.output.text.contains("\"error\":\"io.moviesd.cli.ConfigurationError\""), "\(json.output.text)")
        // Help and the version still answer; MOVIES_CONFIG= reads no file.
        let help = Harness()
        help.environment["MOVIES_CONFIG"] = file
        #expect(help.run("--version") == .success)
        #expect(help.run("search", "--help") == .success)
        let ignored = Harness()
        ignored.environment["MOVIES_CONFIG"] = ""
        ignored.client.recentResult = .success(RecentQueriesReply(queries: []))
        #expect(ignored.run("recent") == .success)
    }

    @Test func anUnreadableFileSaysWhy() throws {
        let directory = Directory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.path + "/dir.conf", withIntermediateDirectories: true)
        #expect(throws: ClientConfigurationError.self) { try ClientConfigurationFile.load(path: directory.path + "/dir.conf") }
    }
}
