import Testing
@testable import MoviesDaemon

@Suite struct DaemonArgumentsTests {
    private func arguments(_ list: [String]) throws -> DaemonArguments {
        guard case .run(let arguments) = try DaemonArguments.parse(list, workingDirectory: "/home/u") else {
            Issue.record("expected a run command")
            return DaemonArguments()
        }
        return arguments
    }

    @Test func parsesEveryOptionInBothSpellings() throws {
        let parsed = try arguments([
            "--config", "etc/m.conf", "--socket=/tmp/s", "--database", "/tmp/d.sqlite3",
            "--remote-url=http://127.0.0.1:8000/3", "--log-level", "warning",
        ])
        #expect(parsed.configurationPath == "/home/u/etc/m.conf")
        #expect(parsed.socketPath == "/tmp/s")
        #expect(parsed.databasePath == "/tmp/d.sqlite3")
        #expect(parsed.remoteURL == "http://127.0.0.1:8000/3/")
        #expect(parsed.logLevel == .warning)
    }

    @Test func helpAndVersion() throws {
        #expect(try DaemonArguments.parse(["--help"], workingDirectory: "/") == .showHelp)
        #expect(try DaemonArguments.parse(["-h"], workingDirectory: "/") == .showHelp)
        #expect(try DaemonArguments.parse(["--version"], workingDirectory: "/") == .showVersion)
        #expect(try DaemonArguments.parse([], workingDirectory: "/") == .run(DaemonArguments()))
    }

    @Test(arguments: [
        (["--frobnicate"], "moviesd: unknown option '--frobnicate' (see 'moviesd --help')"),
        (["--confg", "/x"], "moviesd: unknown option '--confg'; did you mean '--config'? (see 'moviesd --help')"),
        (["--log-lvl=debug"], "moviesd: unknown option '--log-lvl'; did you mean '--log-level'? (see 'moviesd --help')"),
        (["--socket"], "moviesd: option '--socket' needs a value (see 'moviesd --help')"),
        (["--socket", "--database", "/x"], "moviesd: option '--socket' needs a value (see 'moviesd --help')"),
        (["serve"], "moviesd: unexpected argument 'serve' (moviesd takes only options) (see 'moviesd --help')"),
        (["--log-level", "loud"], "moviesd: invalid value 'loud' for --log-level: expected one of debug, info, notice, warning, error (see 'moviesd --help')"),
        (["--remote-url", "ftp://x/"], "moviesd: invalid value 'ftp://x/' for --remote-url: expected an http or https URL such as https://api.themoviedb.org/3/ (see 'moviesd --help')"),
        (["--database="], "moviesd: option '--database' needs a non-empty path (see 'moviesd --help')"),
    ])
    func usageErrorsExit64WithOneLine(list: [String], message: String) {
        do {
            _ = try DaemonArguments.parse(list, workingDirectory: "/")
            Issue.record("parsing \(list) succeeded")
        } catch {
            #expect(error.message == message)
            #expect(error.exitCode == 64)
        }
    }

    @Test func commandLineOverridesTheFile() throws {
        let file = try ConfigurationFile(contents: """
            [Daemon]
            Socket=/file/socket
            Database=/file/db
            LogLevel=error
            MaxConnections=9
            [Remote]
            URL=https://file.example/3/
            """, path: "/m.conf")
        let fromFile = try file.applied(to: DaemonConfiguration())
        let parsed = try arguments(["--socket", "/cli/socket", "--log-level", "debug", "--remote-url", "https://cli.example/3"])
        let merged = parsed.applied(to: fromFile)
        #expect(merged.daemon.socketPath == "/cli/socket")
        #expect(merged.daemon.databasePath == "/file/db")
        #expect(merged.daemon.logLevel == .debug)
        #expect(merged.daemon.maxConnections == 9)
        #expect(merged.remote.baseURL == "https://cli.example/3/")
    }
}
