import Foundation
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

    /// Runs `python3 arguments` and waits (bounded: killed after 20 s) for it to exit.
    /// Standard error goes to a temporary file so only one pipe needs draining.
    static func runPython(_ arguments: [String]) throws -> Output {
        let errorURL = FileManager.default.temporaryDirectory.appendingPathComponent("vl-py-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorURL) }
        let errorHandle = try FileHandle(forWritingTo: errorURL)
        defer { try? errorHandle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let standardOutput = Pipe()
        process.standardOutput = standardOutput
        process.standardError = errorHandle
        try process.run()
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 20, execute: watchdog)
        let outputData = standardOutput.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        let errorData = (try? Data(contentsOf: errorURL)) ?? Data()
        return Output(status: process.terminationStatus,
                      standardOutput: String(decoding: outputData, as: UTF8.self),
                      standardError: String(decoding: errorData, as: UTF8.self))
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
