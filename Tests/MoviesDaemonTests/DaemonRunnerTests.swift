import Foundation
import Testing
@testable import MoviesDaemon

/// The daemon's exit statuses for what it can decide before serving (serving itself is covered by
/// the end-to-end tests, which run the real binary).
@Suite struct DaemonRunnerTests {
    /// An environment confined to `directory`, without credentials.
    private static func environment(_ directory: ScratchDirectory) -> [String: String] {
        [
            "HOME": directory.path, "XDG_RUNTIME_DIR": directory.file("run"), "XDG_CONFIG_HOME": directory.file("config"),
            "XDG_STATE_HOME": directory.file("state"), "PATH": "/usr/bin:/bin",
        ]
    }

    @Test func versionAndHelpExitZero() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let runner = DaemonRunner(environment: DaemonRunnerTests.environment(directory))
        #expect(await runner.run(arguments: ["--version"]) == 0)
        #expect(await runner.run(arguments: ["--help"]) == 0)
    }

    @Test func anUnknownOptionIsAUsageError() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let runner = DaemonRunner(environment: DaemonRunnerTests.environment(directory))
        #expect(await runner.run(arguments: ["--frobnicate"]) == StartupError.usageExitCode)
    }

    @Test func aBadConfigurationFileIsAConfigurationError() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let file = try directory.write("moviesd.conf", "[Daemon]\nAnswerDeadlineSec=soon\n")
        let runner = DaemonRunner(environment: DaemonRunnerTests.environment(directory))
        #expect(await runner.run(arguments: ["--config", file, "--socket", directory.file("s"), "--database", directory.file("c.sqlite3")]) == 78)
        #expect(!FileManager.default.fileExists(atPath: directory.file("c.sqlite3")))
    }

    @Test func anUnusableDatabaseDirectoryFailsBeforeServing() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let blocker = try directory.write("not-a-directory", "x")
        let socket = directory.file("io.moviesd.Movies")
        let runner = DaemonRunner(environment: DaemonRunnerTests.environment(directory))
        let status = await runner.run(arguments: ["--socket", socket, "--database", blocker + "/cache.sqlite3"])
        #expect(status != 0)
        #expect(!FileManager.default.fileExists(atPath: socket))
    }
}
