@testable import MoviesCLI
import MoviesDomain
import MoviesWire
import Testing

/// Issue 46's smaller items for people: `-V`, a misspelt global option, the help's default
/// socket, the retry sentence said once, a 0600 socket's advice, paths in `status` at 40 columns.
@Suite struct CommandLineSmallFixesTests {
    typealias Harness = MoviesCommandLineTests.Harness

    @Test func dashCapitalVPrintsTheVersionAsVersionDoes() {
        let short = Harness()
        #expect(short.run("-V") == .success)
        let long = Harness()
        #expect(long.run("--version") == .success)
        #expect(short.output.text == long.output.text)
        #expect(short.output.text.hasPrefix("movies "))
    }

    @Test(arguments: [
        (["--sokcet", "/tmp/x.sock", "status"], "unknown option '--sokcet'; did you mean '--socket'?"),
        (["--jsno", "status"], "unknown option '--jsno'; did you mean '--json'?"),
        (["--verison"], "unknown option '--verison'; did you mean '--version'?"),
        (["--page", "2", "search", "x"], "'--page' is an option of 'movies search': write it after the command"),
    ])
    func aMisspeltGlobalOptionSaysWhatWasMeant(arguments: [String], message: String) {
        let harness = Harness()
        #expect(harness.run(arguments) == .usage)
        #expect(harness.errors.text.contains(message), "\(harness.errors.text)")
        #expect(!harness.errors.text.contains("unknown command"), "the option's value is no command")
        #expect(harness.socketPaths.isEmpty)
    }

    @Test func theGlobalOptionsBeforeTheCommandStillWork() {
        let harness = Harness()
        harness.client.recentResult = .success(RecentQueriesReply(queries: ["alien"]))
        #expect(harness.run("--socket=/tmp/a.sock", "-q", "--socket", "/tmp/b.sock", "--width", "50", "recent") == .success)
        #expect(harness.socketPaths == ["/tmp/b.sock"])
    }

    /// The help said root always got the system socket; `SocketPathResolver` gives root its own
    /// daemon's, as everyone's, when it exists (see `rootUsesItsUserSocketWhenPresent` there).
    @Test func theHelpDescribesTheDefaultSocketAsTheResolverChoosesIt() {
        let harness = Harness()
        #expect(harness.run("--help", "--width", "400") == .success)
        let text = harness.output.text
        #expect(!text.contains("/run/moviesd/io.moviesd.Movies for root"))
        #expect(text.contains("Root follows the same rule."))
        let resolver = SocketPathResolver(environment: ["XDG_RUNTIME_DIR": "/run/user/0"], uid: 0, fileExists: { $0 == "/run/user/0/moviesd/io.moviesd.Movies" })
        #expect(resolver.resolve(explicit: nil) == "/run/user/0/moviesd/io.moviesd.Movies")
    }

    @Test func whenToTryAgainIsSaidOnce() {
        let error = ClientError.remoteUnavailable("TMDB refused the connection; not trying again for 5 s", retryAfterSeconds: 5)
        #expect(error.message == "TMDB is unavailable and nothing usable is cached: TMDB refused the connection; not trying again for 5 s")
        #expect(ClientError.remoteUnavailable("TMDB answered 503", retryAfterSeconds: 5).message.hasSuffix("TMDB answered 503; try again in 5 s"))
        #expect(ClientError.remoteUnavailable("TMDB answered 503").message.hasSuffix("; try again later"))
    }

    /// The daemon's rate-limit reasons say the wait ("retry after 30 seconds", "retry in 3 s"):
    /// the message says it once, not "…; try again in 30 s" after it.
    @Test(arguments: [
        ("TMDB is rate limiting requests; retry after 30 seconds", 30),
        ("TMDB is rate limiting requests; retry in 3 s", 3),
    ])
    func aRateLimitSaysItsWaitOnce(reason: String, seconds: Int) {
        let error = ClientError.remoteUnavailable(reason, retryAfterSeconds: seconds)
        #expect(error.message == "TMDB is unavailable and nothing usable is cached: \(reason)")
        let mapped = VarlinkErrorMapping.clientError(
            name: "io.moviesd.Movies.RemoteUnavailable",
            parameters: .init(strings: ["reason": reason + "."], integers: ["retryAfterSeconds": Int64(seconds)]), method: "Movie")
        #expect(!mapped.message.contains("try again"), "\(mapped.message)")
    }

    @Test func aSocketClosedToItsGroupIsNotOpenedByJoiningIt() {
        let modes: [String: UInt32] = ["/run/moviesd/io.moviesd.Movies": 0o600, "/srv/group.sock": 0o660]
        let owners: [String: UInt32] = ["/run/moviesd/io.moviesd.Movies": 998, "/srv/group.sock": 998]
        let fileSystem = SocketOwner(ownerOf: { owners[$0] }, nameOf: { $0 == 998 ? "moviesd" : "uid \($0)" }, modeOf: { modes[$0] })
        let remedy = fileSystem.remedy(forRefused: "/run/moviesd/io.moviesd.Movies")
        #expect(remedy?.contains("0600") == true)
        #expect(remedy?.contains("root or moviesd") == true)
        let message = ClientError.permissionDenied("the socket /run/moviesd/io.moviesd.Movies is not accessible to this user", remedy: remedy).message
        #expect(!message.contains("admin group"), "\(message)")
        #expect(message.contains("whatever group you are in"))
        // A socket open to its group: joining the group is the advice, as before.
        #expect(fileSystem.remedy(forRefused: "/srv/group.sock") == nil)
        #expect(ClientError.permissionDenied("refused").message.contains("a member of its admin group"))
    }

    @Test func statusKeepsEachPartOfAPathWholeAt40Columns() {
        let terminal = TerminalCapabilities(isTTY: true, width: 40, usesColor: false)
        let lines = FieldListView.lines([
            DetailField(label: "Daemon", value: "user service (yours), /run/user/1000/moviesd/io.moviesd.Movies"),
            DetailField(label: "Database", value: "/var/lib/moviesd/cache.sqlite3"),
        ], terminal: terminal)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 40 }, "\(lines)")
        let text = lines.map { $0.split(separator: " ").last.map(String.init) ?? "" }
        #expect(text.contains("/run/user/1000/moviesd/"), "\(lines)")
        #expect(text.contains("io.moviesd.Movies"), "\(lines)")
        #expect(!lines.contains { $0.hasSuffix("/io.mo") || $0.hasSuffix("io.moviesd.M") }, "no part broken mid-word: \(lines)")
    }
}
