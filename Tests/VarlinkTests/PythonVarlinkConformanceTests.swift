import Foundation
import MoviesTestSupport
import Testing
@testable import Varlink

/// Talks to our server with the reference Python implementation (`pip install varlink==31.0.0`).
@Suite struct PythonVarlinkConformanceTests {
    static let pythonVarlinkAvailable: Bool = {
        (try? runPython(["-c", "import varlink"]))?.status == 0
    }()
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    struct Output: Sendable {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    /// The interpreter: `$MOVIESD_PYTHON`, else `python3` on `PATH` (the one `.ci/run` installs into).
    static var python: String {
        let configured = ProcessInfo.processInfo.environment["MOVIESD_PYTHON"] ?? ""
        return configured.isEmpty ? "python3" : configured
    }

    /// Runs `python arguments` and waits (bounded: killed by PID at the deadline) for it to exit.
    /// Output goes to temporary files: nothing to drain, and no Foundation `Process` to block in wait4().
    static func runPython(_ arguments: [String]) throws -> Output {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("vl-py-\(UUID().uuidString)")
        let outputPath = base.path + ".out", errorPath = base.path + ".err"
        defer {
            try? FileManager.default.removeItem(atPath: outputPath)
            try? FileManager.default.removeItem(atPath: errorPath)
        }
        let child = try ChildProcess("/usr/bin/env", [python] + arguments, stdout: outputPath, stderr: errorPath)
        let status = child.wait(timeout: ProcessDeadline.seconds) ?? child.stop(signal: SIGKILL, timeout: ProcessDeadline.seconds)
        return Output(status: status,
                      standardOutput: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "",
                      standardError: (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "")
    }

    private func cli(_ arguments: [String]) async throws -> Output {
        try await offThread { try Self.runPython(["-m", "varlink.cli"] + arguments) }
    }

    @Test(.enabled(if: pythonVarlinkAvailable || isCI, "python3 module varlink missing: pip install varlink==31.0.0"))
    func pythonClientTalksToOurServer() async throws {
        try #require(Self.pythonVarlinkAvailable, "python3 module varlink is required in CI (pip install varlink==31.0.0)")
        let server = try TestServer.start()
        let address = "unix:\(server.path)"

        let info = try await cli(["info", address])
        #expect(info.status == 0, "\(info.standardError)")
        #expect(info.standardOutput.contains("Vendor: Example"))
        #expect(info.standardOutput.contains("Product: test-server"))
        #expect(info.standardOutput.contains("Version: 1.2.3"))
        #expect(info.standardOutput.contains("org.example.test"))

        let help = try await cli(["help", "\(address)/org.example.test"])
        #expect(help.status == 0, "\(help.standardError)")
        #expect(help.standardOutput.contains("interface org.example.test"))
        #expect(help.standardOutput.contains("method Echo(text: string) -> (text: string)"))

        let echo = try await cli(["call", "\(address)/org.example.test.Echo", #"{"text": "Amélie"}"#])
        #expect(echo.status == 0, "\(echo.standardError)")
        #expect(try JSONValue.parse(Array(echo.standardOutput.utf8)) == .object(["text": .string("Amélie")]))

        let stream = try await cli(["call", "--more", "\(address)/org.example.test.Count", #"{"count": 3}"#])
        #expect(stream.status == 0, "\(stream.standardError)")
        let indexes = stream.standardOutput.split(separator: "\n").filter { $0.contains("\"index\"") }
        #expect(indexes.count == 3)
        #expect(indexes.last?.contains("2") == true)

        let missing = try await cli(["call", "\(address)/org.example.test.Nope", "{}"])
        #expect(missing.standardError.contains("'error': 'org.varlink.service.MethodNotFound'"))
        #expect(missing.standardError.contains("'method': 'org.example.test.Nope'"))
        await server.stop()
    }
}
