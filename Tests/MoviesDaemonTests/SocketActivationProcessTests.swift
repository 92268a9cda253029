import Foundation
import Glibc
import MoviesTestSupport
import Testing
@testable import MoviesDaemon

/// Socket activation end to end: `systemd-socket-activate` runs this test binary again (filtered to
/// ``activatedChildReportsItsSockets()``) with a real listening socket at fd 3.
@Suite(.blocksThreads) struct SocketActivationProcessTests {
    static let tool = "/usr/bin/systemd-socket-activate"
    static let resultVariable = "MOVIESD_ACTIVATION_RESULT"

    static var toolExists: Bool { FileManager.default.isExecutableFile(atPath: tool) }
    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    @Test(.enabled(if: (toolExists || isCI) && ProcessInfo.processInfo.environment[resultVariable] == nil,
                   "needs systemd-socket-activate (apt-get install systemd)"))
    func inheritedSocketIsFoundValidatedAndTheEnvironmentUnset() async throws {
        try #require(Self.toolExists, "\(Self.tool) is required under CI=true (apt-get install systemd)")
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let socketPath = directory.file("io.moviesd.Movies")
        let resultPath = directory.file("result")
        let testBinary = try #require(CommandLine.arguments.first.flatMap { $0.hasPrefix("/") ? $0 : nil })

        // posix_spawn in a process group of its own, not Foundation's Process: systemd-socket-activate
        // closes inherited descriptors, which makes Process block in wait4() on it; and the group
        // lets stop() kill the activated test binary too, wherever this test stops.
        let activator = try ChildProcess(Self.tool, [
            "--listen=\(socketPath)", "--fdname=varlink", "--setenv=\(Self.resultVariable)=\(resultPath)",
            testBinary, "--testing-library", "swift-testing", "--filter", "activatedChildReportsItsSockets",
        ], ownProcessGroup: true)
        defer { activator.stop(signal: SIGKILL, timeout: ProcessDeadline.seconds) }

        // systemd-socket-activate listens first and runs the child on the first connection.
        let connected = ProcessDeadline.waitUntil { UnixSocketProbe.acceptsConnections(socketPath) || !activator.isRunning }
        try #require(connected && UnixSocketProbe.acceptsConnections(socketPath), "systemd-socket-activate never listened on \(socketPath)")
        let status = activator.wait(timeout: ProcessDeadline.seconds)
        try #require(status != nil, "the activated test binary did not exit within \(ProcessDeadline.seconds) s")
        #expect(status == 0)
        let result = try String(contentsOfFile: resultPath, encoding: .utf8)
        #expect(result == "sockets=3:varlink env=unset cloexec=yes")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment[resultVariable] != nil, "the child half of socketActivation: runs only as the process that test starts"))
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
