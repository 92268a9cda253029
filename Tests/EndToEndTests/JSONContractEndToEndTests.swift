import Foundation
import MoviesTestSupport
import Testing

/// `movies --json` as scripts read it, through jq (issue 28): one JSON object a line, one answer per
/// command by default, every update with `--stream`, a stale answer as an answer, and a failure as
/// one error line carrying the real exit code.
@Suite("movies --json through jq", .serialized, .blocksThreads)
struct JSONContractEndToEndTests {
    static var jq: String? {
        ["/usr/bin/jq", "/usr/local/bin/jq"].first(where: ToolRequirement.exists)
    }

    /// `filter` applied by jq to `text`; jq's output lines.
    static func jq(_ filter: String, _ text: String) throws -> [String] {
        guard let jq else { return [] }
        let result = try ProcessRunner.run(jq, ["-c", filter], stdin: text)
        #expect(result.status == 0, "jq \(filter): \(result.stderr) on \(text)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test("online: one answer per search (each id once); --stream: cached then final")
    func onlineOneAnswer() throws {
        guard ToolRequirement.require(Self.jq != nil, "jq") else { return }
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        #expect(try sandbox.movies(["search", "matrix"]).status == 0)
        let json = try sandbox.movies(["search", "matrix", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(try Self.jq(".page.movies[0].id", json.stdout).count == 1, "\(json.stdout)")
        #expect(try Self.jq(".freshness.origin", json.stdout).allSatisfy { $0 == #""network""# || $0 == #""revalidated""# })
        let stream = try sandbox.movies(["search", "matrix", "--stream"])
        #expect(try Self.jq(".update", stream.stdout) == [#""cached""#, #""final""#], "\(stream.stdout)")
        #expect(try Self.jq(".freshness.origin", stream.stdout).first == #""cache""#)
        let status = try sandbox.movies(["status", "--json"])
        #expect(try Self.jq(".remote.state", status.stdout) == [#""online""#])
    }

    @Test("offline with a cached page: one answer with freshness.remoteError, exit 0 (75 with --fail-stale), no error object")
    func offlineIsAnAnswer() async throws {
        guard ToolRequirement.require(Self.jq != nil, "jq") else { return }
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        #expect(try sandbox.movies(["search", "matrix"]).status == 0)
        try await sandbox.setFaults(#"{"down": true}"#)
        for (arguments, code) in [(["--json"], Int32(0)), (["--json", "--fail-stale"], 75)] {
            let result = try sandbox.movies(["search", "matrix"] + arguments)
            #expect(result.status == code, "\(arguments): \(result.stderr)")
            #expect(try Self.jq("has(\"error\")", result.stdout) == ["false"], "\(result.stdout)")
            #expect(try Self.jq(".freshness.remoteError | length > 0", result.stdout) == ["true"], "\(result.stdout)")
            #expect(try Self.jq(".page.movies[0].id", result.stdout).count == 1)
        }
        let stream = try sandbox.movies(["search", "matrix", "--stream"])
        #expect(try Self.jq("[.update, (.freshness.remoteError != null)]", stream.stdout).last == #"["final",true]"#, "\(stream.stdout)")
        #expect(try Self.jq("select(has(\"error\"))", stream.stdout).isEmpty)
    }

    @Test("failures are one error line with the process's exit code: usage, unreachable daemon, unknown movie")
    func failuresAreOneErrorLine() throws {
        guard ToolRequirement.require(Self.jq != nil, "jq") else { return }
        let sandbox = try Sandbox()
        defer { sandbox.shutdown() }
        let unreachable = try sandbox.movies(["search", "matrix", "--json"])
        #expect(unreachable.status == 69)
        #expect(try Self.jq("[.error, .exitCode]", unreachable.stdout) == [#"["io.moviesd.cli.DaemonUnreachable",69]"#])
        for arguments in [["search", "--page", "0", "x", "--json"], ["--json", "frobnicate"], ["search", "--stream"]] {
            let usage = try sandbox.movies(arguments)
            #expect(usage.status == 64, "\(arguments)")
            #expect(try Self.jq("[.error, .exitCode]", usage.stdout) == [#"["io.moviesd.cli.UsageError",64]"#], "\(arguments): \(usage.stdout)")
        }
        try sandbox.startStub()
        try sandbox.startDaemon()
        let missing = try sandbox.movies(["show", "999999999", "--json"])
        #expect(missing.status == 1)
        #expect(try Self.jq(".exitCode", missing.stdout) == ["1"])
    }

    @Test("poster -o FILE --json names the file and its size, never the image as base64")
    func posterAnswerNamesTheFile() throws {
        guard ToolRequirement.require(Self.jq != nil, "jq") else { return }
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        let output = sandbox.directory.appendingPathComponent("poster.png").path
        let result = try sandbox.movies(["poster", "603", "-o", output, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? -1
        #expect(try Self.jq("[.file, .bytes, has(\"base64\")]", result.stdout) == ["[\"\(output)\",\(size),false]"], "\(result.stdout)")
    }
}
