import Foundation
import MoviesTestSupport
import Testing

/// Issue 44: the daemon runs one event loop per CPU it may use (its affinity mask, as `taskset`
/// sets it), or `[Daemon] EventLoops=`; every loop serves calls.
@Suite("Event loops, end to end", .serialized, .blocksThreads)
struct EventLoopsEndToEndTests {
    static let taskset = "/usr/bin/taskset"

    /// Starts moviesd (through `taskset -c cpus` when given) with `configuration`; returns its
    /// sandbox and its log once it serves.
    static func started(cpus: String?, configuration: String) throws -> (Sandbox, BackgroundProcess) {
        let sandbox = try Sandbox()
        let file = sandbox.directory.appendingPathComponent("moviesd.conf")
        try Data(configuration.utf8).write(to: file)
        try sandbox.startStub()
        let daemon = [BinaryLocator.path("moviesd"), "--config", file.path, "--socket", sandbox.socketPath, "--database", sandbox.databasePath,
                      "--remote-url", "http://127.0.0.1:\(sandbox.stubPort)/3/"]
        let process = try BackgroundProcess(
            cpus == nil ? daemon[0] : taskset, cpus == nil ? Array(daemon.dropFirst()) : ["-c", cpus ?? "0"] + daemon,
            environment: ["MOVIESD_TMDB_TOKEN": Sandbox.token], logDirectory: sandbox.directory, name: "moviesd-loops")
        guard BackgroundProcess.waitUntil({ UnixSocketProbe.acceptsConnections(sandbox.socketPath) || !process.isRunning }), process.isRunning else {
            process.stop()
            sandbox.shutdown()
            throw SandboxError("moviesd did not start: \(process.stderr)")
        }
        return (sandbox, process)
    }

    @Test("pinned to one CPU, one loop; EventLoops=3, three; calls on many connections are all answered")
    func loopsFollowTheAffinityMaskOrTheSetting() async throws {
        guard ToolRequirement.require(ToolRequirement.exists(Self.taskset), "taskset (util-linux)") else { return }
        let (pinned, one) = try Self.started(cpus: "0", configuration: "[Refresh]\nEnabled=no\n")
        #expect(BackgroundProcess.waitUntil { one.stderr.contains("serving io.moviesd.Movies") }, "\(one.stderr)")
        #expect(one.stderr.contains("; 1 event loop"), "\(one.stderr)")
        one.stop()
        pinned.shutdown()

        let (sandbox, three) = try Self.started(cpus: nil, configuration: "[Daemon]\nEventLoops=3\n[Refresh]\nEnabled=no\n")
        defer {
            three.stop()
            sandbox.shutdown()
        }
        #expect(BackgroundProcess.waitUntil { three.stderr.contains("serving io.moviesd.Movies") }, "\(three.stderr)")
        #expect(three.stderr.contains("; 3 event loops"), "\(three.stderr)")
        #expect(try sandbox.movies(["search", "matrix"]).status == 0)
        // Six clients at once: spread over the three loops, each answered from memory or the cache.
        let results = try await withThrowingTaskGroup(of: ProcessResult.self) { group in
            for _ in 0..<6 { group.addTask { try sandbox.movies(["search", "matrix", "--cache-first", "--json"]) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 6)
        #expect(results.allSatisfy { $0.status == 0 && $0.stdout.contains(#""origin":"cache""#) }, "\(results.map(\.stderr))")
    }
}
