import MoviesTestSupport
import Foundation
import Varlink

/// An in-process server on a socket in a fresh temporary directory.
struct TestServer {
    let server: VarlinkServer
    let path: String
    let probe: CancellationProbe
    private let directory: URL
    private let task: Task<Void, any Error>

    /// Starts a server with ``TestInterface`` (its methods' own `deadlines`) and `extraHandlers`.
    static func start(extraHandlers: [any VarlinkInterfaceHandler] = [], deadlines: [String: Int] = [:], configure: (inout VarlinkServerConfiguration) -> Void = { _ in }) throws -> TestServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vl-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("test.sock").path
        var configuration = VarlinkServerConfiguration(vendor: "Example", product: "test-server", version: "1.2.3", url: "https://example.org")
        configure(&configuration)
        let probe = CancellationProbe()
        let server = VarlinkServer(configuration: configuration, handlers: [TestInterface(probe: probe, deadlines: deadlines)] + extraHandlers)
        let listener = try VarlinkListener.bind(path: path)
        let task = Task { try await server.run(on: listener) }
        return TestServer(server: server, path: path, probe: probe, directory: directory, task: task)
    }

    /// Shuts the server down, waits for `run` to return and removes the directory.
    func stop(graceSeconds: Int = 0) async {
        server.shutdown(gracePeriodSeconds: graceSeconds)
        _ = await task.result
        try? FileManager.default.removeItem(at: directory)
    }

    /// Waits for `run` to return (after a shutdown requested elsewhere).
    func waitUntilStopped() async {
        _ = await task.result
    }

    /// Waits (bounded) until the server's connection count satisfies `condition`.
    /// Whether the server's connection count meets `condition` within the hang guard
    /// (`ProcessDeadline.seconds`): the count has no notification, so this polls.
    func waitForConnectionCount(_ condition: (Int) -> Bool) async -> Bool {
        await waitFor(server.connectionCount, condition)
    }

    /// Whether the input the server holds unparsed (``VarlinkServer/bufferedInputBytes``) meets
    /// `condition` within the hang guard.
    func waitForBufferedInput(_ condition: (Int) -> Bool) async -> Bool {
        await waitFor(server.bufferedInputBytes, condition)
    }

    /// Polls `value` (it has no notification) until it meets `condition`, for at most
    /// `ProcessDeadline.seconds`.
    private func waitFor(_ value: @autoclosure () -> Int, _ condition: (Int) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(ProcessDeadline.seconds)
        while ContinuousClock.now < deadline {
            if condition(value()) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition(value())
    }
}
