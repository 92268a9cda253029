import Foundation
import Glibc
import MoviesDomain
import MoviesTestSupport
import Testing
@testable import MoviesDaemon
@testable import Varlink

/// The composition root.
@Suite struct AppDIContainerTests {
    @Test func opensATemporaryDatabaseAndBuildsAWorkingService() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let paths = DaemonPaths(socketPath: directory.file("io.moviesd.Movies"), databasePath: directory.file("cache.sqlite3"))
        let events = RecordingEventLog()
        let container = try AppDIContainer(configuration: .defaults, paths: paths, credential: .none, events: events)
        #expect(container.remote is UnconfiguredRemote)
        #expect(FileManager.default.fileExists(atPath: paths.databasePath))

        let service = container.makeMoviesService(startedAt: Date(), daemonUID: getuid(), authorizedGID: nil)
        #expect(service.interfaceName == "io.moviesd.Movies")
        #expect(service.interfaceDescription == MoviesInterface.description)
        let writer = VarlinkReplyWriter(isStreaming: false) { _ in }
        let peer = PeerCredentials(pid: getpid(), uid: getuid(), gid: getgid())

        do {
            _ = try await service.handle(VarlinkCall(method: "io.moviesd.Movies.Search", parameters: ["query": .string("matrix")], peer: peer), replies: writer)
            Issue.record("Search without a credential succeeded")
        } catch {
            #expect(error.name == "io.moviesd.Movies.RemoteRejected")
            // No request was made: no HTTP status is invented (issue 28, item 3).
            #expect(error.parameters["httpStatus"] == .int(0))
            #expect(error.parameters["tmdbCode"] == .int(7))
            #expect(error.parameters["message"]?.stringValue?.contains("no TMDB credential") == true)
        }
        let status = try await service.handle(VarlinkCall(method: "io.moviesd.Movies.Status", peer: peer), replies: writer)
        let json = try JSONValue.parse(JSONValue.object(status).serialized())
        #expect(json["version"] == .string(MoviesdRelease.version))
        // No credential is not a rejected one (it said auth_rejected): the state is unknown, as
        // TMDB was never asked, and the credential is said to be missing.
        #expect(json["remote"]?["state"] == .string("unknown"))
        #expect(json["remote"]?["credential"] == .string("missing"))
        // The journal says so once, at start, and never that a credential was rejected.
        #expect(events.names.filter { $0 == "remote.no-credential" }.count == 1)
        #expect(!events.names.contains("remote.auth-rejected"), "\(events.names)")
        #expect(events.events.first { $0.name == "remote.no-credential" }?.message.hasPrefix("no TMDB credential configured") == true)
        #expect(json["cache"]?["entries"] == .int(0))
        let purged = try await service.handle(VarlinkCall(method: "io.moviesd.Movies.Purge", peer: peer), replies: writer)
        #expect(purged["entries"] == .int(0))
        await container.close()
    }

    @Test func theServerAnswersAnOverdueCallWithTheInterfacesTimeoutError() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        var configuration = DaemonConfiguration.defaults
        configuration.daemon.callDeadlineSeconds = 1
        let paths = DaemonPaths(socketPath: directory.file("io.moviesd.Movies"), databasePath: directory.file("cache.sqlite3"))
        let container = try AppDIContainer(configuration: configuration, paths: paths, credential: .none)
        let server = container.makeServer(handlers: [NeverAnsweringInterface()])
        let listener = try VarlinkListener.bind(path: paths.socketPath)
        let task = Task { try await server.run(on: listener) }
        let replies = try await ServiceHarness.offThread { () throws -> [VarlinkReply] in
            let client = try VarlinkClient(unixPath: paths.socketPath, timeoutSeconds: ProcessDeadline.replySeconds)
            var replies: [VarlinkReply] = []
            try client.call("org.varlink.service.GetInfo") { replies.append($0) }
            try client.call("org.example.never.Wait") { replies.append($0) }
            return replies
        }
        server.shutdown(gracePeriodSeconds: 0)
        _ = await task.result
        await container.close()
        #expect(replies.first?.parameters["product"] == .string("moviesd"))
        #expect(replies.first?.parameters["version"] == .string(MoviesdRelease.version))
        #expect(replies.last?.error == "io.moviesd.Movies.Timeout")
        #expect(replies.last?.parameters["seconds"] == .int(1))
    }

    @Test func anUnopenableDatabaseIsACannotCreateStartupError() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let blocker = try directory.write("not-a-directory", "x")
        let paths = DaemonPaths(socketPath: directory.file("sock"), databasePath: blocker + "/cache.sqlite3")
        do {
            _ = try AppDIContainer(configuration: .defaults, paths: paths, credential: .none)
            Issue.record("opened a database under a regular file")
        } catch {
            #expect(error.exitCode == StartupError.cannotCreateExitCode)
            #expect(error.description.contains(paths.statePath))
        }
    }

    @Test func anInvalidRemoteURLIsAConfigurationError() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        var configuration = DaemonConfiguration.defaults
        configuration.remote.baseURL = ""
        let paths = DaemonPaths(socketPath: directory.file("sock"), databasePath: directory.file("cache.sqlite3"))
        do {
            let container = try AppDIContainer(configuration: configuration, paths: paths, credential: .bearer("secret-token-123"))
            await container.close()
            Issue.record("accepted an empty remote URL")
        } catch {
            #expect(error.exitCode == StartupError.configurationExitCode)
            #expect(!error.description.contains("secret-token-123"))
        }
    }

    @Test func aCredentialSelectsTheTMDBRemote() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let paths = DaemonPaths(socketPath: directory.file("sock"), databasePath: directory.file("cache.sqlite3"))
        let container = try AppDIContainer(configuration: .defaults, paths: paths, credential: .apiKey("k"))
        #expect(!(container.remote is UnconfiguredRemote))
        await container.close()
    }
}

/// An interface whose only method never answers (until cancelled).
private struct NeverAnsweringInterface: VarlinkInterfaceHandler {
    let interfaceName = "org.example.never"
    let interfaceDescription = "interface org.example.never\n\nmethod Wait() -> ()\n"

    func declares(method name: String) -> Bool { name == "Wait" }

    func handle(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        try? await Task.sleep(for: .seconds(3_600))  // ends at once when the call is cancelled
        return [:]
    }
}

/// Another process's lock is waited for within the answer deadline, never SQLite's 5 s past it.
@Suite struct DatabaseBusyTimeoutTests {
    @Test(arguments: [(3, Int32(1000)), (1, 333), (0, 5000), (60, 5000), (-1, 5000)])
    func theBusyTimeoutIsAThirdOfTheAnswerDeadline(deadline: Int, expected: Int32) {
        #expect(AppDIContainer.busyTimeoutMilliseconds(answerDeadlineSeconds: deadline) == expected)
    }
}
