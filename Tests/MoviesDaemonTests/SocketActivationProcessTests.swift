import Foundation
import Glibc
import Testing
@testable import MoviesDaemon

/// Socket activation end to end: `systemd-socket-activate` runs this test binary again (filtered to
/// ``activatedChildReportsItsSockets()``) with a real listening socket at fd 3.
@Suite struct SocketActivationProcessTests {
    static let tool = "/usr/bin/systemd-socket-activate"
    static let resultVariable = "MOVIESD_ACTIVATION_RESULT"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: tool) && ProcessInfo.processInfo.environment[resultVariable] == nil))
    func inheritedSocketIsFoundValidatedAndTheEnvironmentUnset() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let socketPath = directory.file("io.moviesd.Movies")
        let resultPath = directory.file("result")
        let testBinary = try #require(CommandLine.arguments.first.flatMap { $0.hasPrefix("/") ? $0 : nil })

        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.tool)
        process.arguments = [
            "--listen=\(socketPath)", "--fdname=varlink", "--setenv=\(Self.resultVariable)=\(resultPath)",
            testBinary, "--testing-library", "swift-testing", "--filter", "activatedChildReportsItsSockets",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // systemd-socket-activate listens first and runs the child on the first connection.
        var connected = false
        for _ in 0..<200 where !connected {
            connected = SocketProbe.isServing(path: socketPath)
            if !connected { try await Task.sleep(for: .milliseconds(25)) }
        }
        #expect(connected)
        for _ in 0..<400 where process.isRunning {
            try await Task.sleep(for: .milliseconds(25))
        }
        let result = try String(contentsOfFile: resultPath, encoding: .utf8)
        #expect(result == "sockets=3:varlink env=unset cloexec=yes")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment[resultVariable] != nil))
    func activatedChildReportsItsSockets() throws {
        let resultPath = try #require(ProcessInfo.processInfo.environment[Self.resultVariable])
        let sockets = try SocketActivation.takeInheritedSockets()
        let described = sockets.map { "\($0.fileDescriptor):\($0.name ?? "-")" }.joined(separator: ",")
        let unset = getenv("LISTEN_FDS") == nil && getenv("LISTEN_PID") == nil && getenv("LISTEN_FDNAMES") == nil
        let cloexec = sockets.allSatisfy { fcntl($0.fileDescriptor, F_GETFD) & FD_CLOEXEC != 0 }
        let result = "sockets=\(described) env=\(unset ? "unset" : "set") cloexec=\(cloexec ? "yes" : "no")"
        try result.write(toFile: resultPath, atomically: true, encoding: .utf8)
    }
}
