import Foundation
import MoviesTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// One end-to-end world in a temporary directory: a `tmdb-stub`, a `moviesd` on a Unix socket and
/// database inside the directory, and a way to run `movies` against them. Everything stops and is
/// removed in `shutdown()` (and, as a fallback, in `deinit`).
final class Sandbox: @unchecked Sendable {
    static let token = "e2e-stub-token-0123456789"

    let directory: URL
    private(set) var stub: BackgroundProcess?
    private(set) var daemon: BackgroundProcess?
    private(set) var stubPort = 0
    private(set) var controlPort = 0

    var socketPath: String { directory.appendingPathComponent("moviesd.sock").path }
    var databasePath: String { directory.appendingPathComponent("cache.sqlite3").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("moviesd-e2e-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// A sandbox with its stub and daemon started (their default flags); shut down again if
    /// either fails to start.
    static func running() throws -> Sandbox {
        let sandbox = try Sandbox()
        do {
            try sandbox.startStub()
            try sandbox.startDaemon()
        } catch {
            sandbox.shutdown()
            throw error
        }
        return sandbox
    }

    /// Starts the stub with extra flags and waits for both of its ports.
    func startStub(_ extra: [String] = []) throws {
        let process = try BackgroundProcess(
            BinaryLocator.path("tmdb-stub"),
            ["--port", "0", "--control-port", "0", "--token", Sandbox.token] + extra,
            logDirectory: directory, name: "stub"
        )
        stub = process
        let ready = BackgroundProcess.waitUntil {
            Sandbox.port(in: process.stdout, after: "listening on http://127.0.0.1:") != nil
                && Sandbox.port(in: process.stdout, after: "control on http://127.0.0.1:") != nil
        }
        guard ready, let port = Sandbox.port(in: process.stdout, after: "listening on http://127.0.0.1:"),
              let control = Sandbox.port(in: process.stdout, after: "control on http://127.0.0.1:") else {
            throw SandboxError("tmdb-stub did not start: \(process.stdout) \(process.stderr)")
        }
        stubPort = port
        controlPort = control
    }

    /// Starts moviesd against the stub and waits for its socket.
    func startDaemon(_ extra: [String] = [], environment: [String: String] = [:]) throws {
        var env = ["MOVIESD_TMDB_TOKEN": Sandbox.token]
        for (key, value) in environment { env[key] = value }
        let process = try BackgroundProcess(
            BinaryLocator.path("moviesd"),
            ["--socket", socketPath, "--database", databasePath, "--remote-url", "http://127.0.0.1:\(stubPort)/3/"] + extra,
            environment: env, logDirectory: directory, name: "moviesd-\(UUID().uuidString.prefix(4))"
        )
        daemon = process
        let ready = BackgroundProcess.waitUntil {
            UnixSocketProbe.acceptsConnections(socketPath) || !process.isRunning
        }
        guard ready, process.isRunning else {
            throw SandboxError("moviesd did not start: \(process.stderr)")
        }
    }

    /// Runs `movies` with `--socket` pointing at this sandbox's daemon (and no configuration file
    /// of the user running the tests, unless `environment` names one).
    func movies(_ arguments: [String], environment: [String: String] = [:], timeout: Double = ProcessDeadline.seconds) throws -> ProcessResult {
        var env = ["NO_COLOR": "1", "MOVIES_CONFIG": ""]
        for (key, value) in environment { env[key] = value }
        return try ProcessRunner.run(BinaryLocator.path("movies"), ["--socket", socketPath] + arguments, environment: env, timeout: timeout)
    }

    /// Sets the stub's faults through its control endpoint (JSON object text).
    func setFaults(_ json: String) async throws {
        try await control(method: "POST", path: "/faults", body: json)
    }

    /// The stub's request count for `path` (e.g. `/3/search/movie`).
    func requestCount(_ path: String) async throws -> Int {
        let data = try await control(method: "GET", path: "/stats", body: nil)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let requests = object?["requests"] as? [String: Any]
        return (requests?[path] as? Int) ?? 0
    }

    /// The stub's TMDB account (`GET /account`): `watchlist`, `favorite`, `rated` and `writes`.
    func stubAccount() async throws -> [String: Any] {
        let data = try await control(method: "GET", path: "/account", body: nil)
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }

    @discardableResult
    private func control(method: String, path: String, body: String?) async throws -> Data {
        guard let url = URL(string: "http://127.0.0.1:\(controlPort)\(path)") else { throw SandboxError("bad control URL") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.timeoutInterval = 5
        if let body { request.httpBody = Data(body.utf8) }
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) else {
            throw SandboxError("control \(method) \(path) failed")
        }
        return data
    }

    /// Stops everything and removes the directory.
    func shutdown() {
        daemon?.stop()
        stub?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { shutdown() }

    static func port(in text: String, after marker: String) -> Int? {
        guard let range = text.range(of: marker) else { return nil }
        let digits = text[range.upperBound...].prefix { $0.isNumber }
        return Int(digits)
    }
}

/// A failure to set up the sandbox.
struct SandboxError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
