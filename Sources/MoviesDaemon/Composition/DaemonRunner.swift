import MoviesDomain
import Foundation
import Glibc
import Varlink

/// The daemon's lifecycle: bootstrap (`DaemonBootstrap`: configure, lock, open, listen or adopt a
/// socket-activated listener), then run its services (`ServiceGroup`), notify systemd, serve until
/// SIGTERM/SIGINT or until a service dies, stop the services in reverse order (the server drains
/// its calls in flight), close the databases and exit 0 (1 when a service died).
public struct DaemonRunner: Sendable {
    private let environment: [String: String]

    /// Creates a runner reading `environment`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// Runs `moviesd` with its command-line `arguments` (without the program name) and returns the
    /// process exit status.
    public func run(arguments: [String]) async -> Int32 {
        SignalWatcher.ignoreBrokenPipe()
        // Files the daemon creates (databases, their -wal and -shm, moved-aside copies) are its
        // user's alone whatever umask it was started with; the socket gets its mode explicitly.
        umask(0o077)
        let command: DaemonCommand
        do {
            command = try DaemonArguments.parse(arguments, workingDirectory: FileManager.default.currentDirectoryPath)
        } catch {
            printError(error.description)
            return error.exitCode
        }
        switch command {
        case .showHelp:
            print(DaemonArguments.usage)
            return 0
        case .showVersion:
            print("moviesd \(MoviesdRelease.version)")
            return 0
        case .run(let arguments):
            do {
                return try await serve(arguments)
            } catch let error as StartupError {
                printError(error.description)
                return error.exitCode
            } catch let error as ConfigurationError {
                printError(error.description)
                return error.exitCode
            } catch {
                printError("moviesd: \(error)")
                return 1
            }
        }
    }

    private func serve(_ arguments: DaemonArguments) async throws -> Int32 {
        let daemon = try await DaemonBootstrap.open(arguments, environment: environment)
        let logger = daemon.logger
        let notifier = SystemdNotifier(environment: environment, logger: logger)
        var group = ServiceGroup(services: services(of: daemon, notifier: notifier), events: LoggerEventLog(logger: logger))
        group.otherSignal = { signal in
            if signal == SIGHUP { logger.info("SIGHUP: nothing to reload; restart the service to apply configuration changes") }
        }
        group.willStop = { notifier.stopping(status: "Shutting down") }

        let configuration = daemon.configuration
        logger.notice("moviesd \(MoviesdRelease.version) serving io.moviesd.Movies on \(daemon.socketDescription); cache \(daemon.paths.databasePath); state \(daemon.paths.statePath); remote \(configuration.remote.baseURL) with \(daemon.credential); \(configuration.daemon.eventLoopCount == 1 ? "1 event loop" : "\(configuration.daemon.eventLoopCount) event loops")")
        notifier.ready(status: "Serving io.moviesd.Movies on \(daemon.socketDescription)")
        let outcome = await group.run(signals: daemon.signals.signals)
        await daemon.close()
        logger.notice("moviesd stopped")
        return outcome.exitStatus
    }

    /// The daemon's services in start order (stopped in reverse): the watchdog outlives the
    /// server's drain; the server stops after the background work that uses the cache. Those
    /// whose work stops cleanly when cancelled (between two steps, nothing lost) are cancelled
    /// when asked to stop (a stop timeout of 0).
    private func services(of daemon: DaemonBootstrap, notifier: SystemdNotifier) -> [LifecycleService] {
        let container = daemon.container
        let service = container.makeMoviesService(startedAt: Date(), daemonUID: getuid(), authorizedGID: daemon.authorizedGID)
        let server = container.makeServer(service: service)
        let listener = daemon.listener
        var services: [LifecycleService] = []
        if let interval = notifier.watchdogInterval {
            services.append(LifecycleService("systemd watchdog", stopTimeoutSeconds: 0) { _ in
                while !Task.isCancelled {
                    notifier.watchdog()
                    try? await Task.sleep(for: interval)
                }
            })
        }
        services.append(LifecycleService("Varlink server", stopTimeoutSeconds: 12) { shutdown in
            // Stopping drains: calls in flight get 10 s, then are cancelled.
            shutdown.onRequest { server.shutdown(gracePeriodSeconds: 10) }
            try await server.run(on: listener)
        })
        services.append(LifecycleService("watchlist refresh") { [scheduler = container.scheduler, refresher = container.refresher] shutdown in
            // The pass in progress ends; a refresh a client started stops too, before the server drains its call.
            if let scheduler { await scheduler.run(until: shutdown) } else { await shutdown.wait() }
            await refresher.cancelRunning()
        })
        if let accounts = container.accounts {
            services.append(LifecycleService("account sync", stopTimeoutSeconds: 0) { _ in await accounts.run() })
        }
        // An import cut short loses nothing (its staging file is deleted at the next open).
        if let catalogue = container.catalogueUpdater {
            services.append(LifecycleService("catalogue import", stopTimeoutSeconds: 0) { _ in await catalogue.runSchedule() })
        }
        services.append(LifecycleService("search index upkeep", stopTimeoutSeconds: 0) { [upkeep = container.indexUpkeep] _ in await upkeep.run() })
        services.append(LifecycleService("remote probe", stopTimeoutSeconds: 0) { [probe = container.probe] _ in await probe.run() })
        services.append(LifecycleService("external write watch", stopTimeoutSeconds: 0) { _ in await container.watchExternalWrites() })
        return services
    }

    /// Writes a fatal error to standard error; when that is the journal (`JOURNAL_STREAM`), each
    /// line carries sd-daemon(3)'s `<3>` (err) prefix, so `journalctl -p err` shows it.
    private func printError(_ message: String) {
        FileHandle.standardError.write(Data(Self.fatalLines(message, environment: environment).utf8))
    }

    /// The text `printError` writes for `message`.
    static func fatalLines(_ message: String, environment: [String: String]) -> String {
        let journal = !(environment["JOURNAL_STREAM"] ?? "").isEmpty
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.map { (journal ? "<\(LogLevel.error.syslogPriority)>" : "") + $0 + "\n" }.joined()
    }
}
