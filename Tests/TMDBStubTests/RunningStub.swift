import TMDBStub
import MoviesTestSupport

/// A stub server started on 127.0.0.1 with kernel-assigned ports for one test, stopped afterwards.
struct RunningStub {
    let server: TMDBStubServer
    let port: Int
    let controlPort: Int

    /// Runs `body` against a started server configured by `configure`, then stops it.
    static func with(
        _ configure: (inout TMDBStubConfiguration) -> Void = { _ in },
        _ body: (RunningStub) throws -> Void
    ) throws {
        var configuration = TMDBStubConfiguration()
        configure(&configuration)
        let server = TMDBStubServer(configuration: configuration)
        let ports = try server.start()
        defer { server.stop() }
        try body(RunningStub(server: server, port: ports.port, controlPort: ports.controlPort))
    }

    /// An authorized GET on the main port (bearer token).
    func get(_ target: String, headers: [String: String] = [:], timeoutSeconds: Int = ProcessDeadline.replySeconds) throws -> RawHTTPResponse {
        try RawHTTPClient.send(
            port: port, target: target,
            headers: ["Authorization": "Bearer stub-token"].merging(headers) { $1 }, timeoutSeconds: timeoutSeconds
        )
    }

    /// A request on the control port.
    func control(_ method: String, _ target: String, body: String = "") throws -> RawHTTPResponse {
        try RawHTTPClient.send(port: controlPort, method: method, target: target, body: Array(body.utf8))
    }
}
