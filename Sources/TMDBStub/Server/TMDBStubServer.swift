import Foundation
import Glibc
import Synchronization

/// A TMDB-compatible HTTP/1.1 fixture server with fault injection, runnable in-process by tests
/// or as the `tmdb-stub` executable.
///
/// The main port answers `/3/search/movie`, `/3/movie/{id}`, `/3/movie/changes`,
/// `/3/movie/{id}/changes`, `/3/configuration` and `/t/p/{size}/{file}` from a deterministic
/// ``MovieCatalogue``, and TMDB's login (`/3/authentication/…`), account (`/3/account/…`) and
/// rating routes (`/3/movie/{id}/rating`, `/account_states`) from one ``StubAccount``; the control
/// port (`/faults`, `/reset`, `/stats`, `/changes`, `/account`) switches faults, records changes
/// and edits the account at run time. One thread serves each connection, up to ``TMDBStubConfiguration/maxConnections``.
public final class TMDBStubServer: Sendable {
    /// The configuration the server was created with.
    public let configuration: TMDBStubConfiguration
    /// The catalogue served.
    public let catalogue: MovieCatalogue
    let router: TMDBRouter
    let state = Mutex(ServerState())
    /// What changed in the catalogue, for the change feed (`POST /changes` on the control port).
    public let changes = StubChangeLog()
    /// The user account behind the login, account and rating routes (`/account` on the control port).
    public let account: StubAccount
    /// The daily ID export files (`/p/exports/movie_ids_MM_DD_YYYY.json.gz`).
    let exports: ExportFiles

    /// Creates a server (building its catalogue); nothing listens until ``start()``.
    public init(configuration: TMDBStubConfiguration = TMDBStubConfiguration()) {
        self.configuration = configuration
        catalogue = MovieCatalogue(seed: configuration.seed, count: configuration.movieCount)
        account = StubAccount(autoApprove: configuration.autoApprove)
        exports = ExportFiles(seed: configuration.seed, size: configuration.exportSize, served: catalogue.movies)
        router = TMDBRouter(catalogue: catalogue, configuration: configuration, changes: changes, account: account)
        state.withLock { $0.faults = configuration.faults }
    }

    /// Opens both listening sockets and starts accepting; returns the bound ports.
    /// With an initial `down` fault the main port is bound (to reserve it) and closed at once.
    @discardableResult
    public func start() throws -> (port: Int, controlPort: Int) {
        let main = try TCPSocket.listen(host: configuration.host, port: configuration.port)
        let control: (fd: Int32, port: Int)
        do {
            control = try TCPSocket.listen(host: configuration.host, port: configuration.controlPort)
        } catch {
            close(main.fd)
            throw error
        }
        state.withLock { state in
            state.port = main.port
            state.controlPort = control.port
            state.controlListener = control.fd
            state.isRunning = true
            if state.faults.down { close(main.fd) } else { state.mainListener = main.fd }
        }
        startAcceptLoop(role: .main)
        startAcceptLoop(role: .control)
        return (main.port, control.port)
    }

    /// Closes the listening sockets and every open connection; idempotent.
    public func stop() {
        state.withLock { state in
            state.isRunning = false
            for fd in [state.mainListener, state.controlListener].compactMap({ $0 }) { TCPSocket.closeListener(fd) }
            state.mainListener = nil
            state.controlListener = nil
            for fd in state.connections.keys { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    /// The faults injected now. Setting `down` closes or re-opens the main port (on the same port)
    /// before the setter returns; use ``updateFaults(_:)`` to learn about a failed re-open.
    public var faults: StubFaults {
        get { state.withLock { $0.faults } }
        set { try? updateFaults(newValue) }
    }

    /// Replaces the faults, closing or re-opening the main listening socket as `down` requires.
    /// - Throws: when the main port cannot be bound again; the server then stays down.
    public func updateFaults(_ faults: StubFaults) throws {
        let host = configuration.host
        try state.withLock { state throws in
            if faults.down, let listener = state.mainListener {
                TCPSocket.closeListener(listener)
                state.mainListener = nil
                for (fd, role) in state.connections where role == .main { shutdown(fd, Int32(SHUT_RDWR)) }
            } else if !faults.down, state.mainListener == nil, state.isRunning {
                state.mainListener = try TCPSocket.listen(host: host, port: state.port).fd
            }
            state.faults = faults
        }
    }

    /// Clears every fault (re-opening the main port if down) and the request counters; the change
    /// log and the account stay.
    public func resetFaultsAndCounters() throws {
        try updateFaults(StubFaults())
        state.withLock { state in
            state.requestCounts = [:]
            state.totalRequests = 0
        }
    }

    /// How many requests for `path` (without query) the main port has received.
    public func requestCount(path: String) -> Int {
        state.withLock { $0.requestCounts[path] ?? 0 }
    }

    /// How many requests the main port has received in total.
    public var totalRequestCount: Int {
        state.withLock { $0.totalRequests }
    }

    /// The bound ports (0 before ``start()``).
    public var ports: (port: Int, controlPort: Int) {
        state.withLock { ($0.port, $0.controlPort) }
    }
}
