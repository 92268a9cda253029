import Foundation
import Glibc
import Varlink

/// The daemon's lifecycle, as a service with a `run()` that returns on graceful shutdown:
/// configure, lock, open, listen (or adopt a socket-activated listener), notify systemd, serve until
/// SIGTERM/SIGINT, then stop accepting, drain in-flight calls, close the database and exit 0.
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
            DaemonRunner.printError(error.description)
            return error.exitCode
        }
        switch command {
        case .showHelp:
            print(DaemonArguments.usage)
            return 0
        case .showVersion:
            print("moviesd \(MoviesDaemonVersion.current)")
            return 0
        case .run(let arguments):
            do {
                return try await serve(arguments)
            } catch let error as StartupError {
                DaemonRunner.printError(error.description)
                return error.exitCode
            } catch let error as ConfigurationError {
                DaemonRunner.printError(error.description)
                return error.exitCode
            } catch {
                DaemonRunner.printError("moviesd: \(error)")
                return 1
            }
        }
    }

    private func serve(_ arguments: DaemonArguments) async throws -> Int32 {
        let uid = getuid()
        let configuration = try DaemonConfiguration.load(arguments: arguments, environment: environment, uid: uid)
        var logger = Logger(minimumLevel: configuration.daemon.logLevel, environment: environment)
        let paths = DaemonPaths.resolve(configuration, environment: environment, uid: uid)
        // Before anything a client can see (the socket): a SIGTERM from then on is a clean stop,
        // handled once serving starts, never the default action's death with 143.
        let signals = try SignalWatcher()
        let activated = try SocketActivation.takeInheritedSockets()
        try paths.prepare(socketActivated: !activated.isEmpty)
        let lock = try InstanceLock(databasePath: paths.databasePath)
        // Two daemons with different cache files in one directory would share the state database.
        let stateLock = try InstanceLock(databasePath: paths.statePath)
        let credential = try CredentialLoader.load(environment: environment)
        if let secret = credential.secret { logger = logger.redacting(secret) }
        let authorizedGID = try configuration.daemon.authorizedGroup?.resolvedGroupID()

        // Each connection is a descriptor; leave room for the database, the remote and the listener.
        let needed = UInt64(configuration.daemon.maxConnections) + 256
        let openFiles = FileDescriptorLimit.raise(toAtLeast: needed)
        if openFiles < needed {
            logger.warning("the open-file limit is \(openFiles), below the \(needed) that MaxConnections=\(configuration.daemon.maxConnections) needs; raise LimitNOFILE=")
        }

        let container = try AppDIContainer(configuration: configuration, paths: paths, credential: credential, events: LoggerEventLog(logger: logger))
        let listener: VarlinkListener
        let socketDescription: String
        if let inherited = activated.first {
            listener = VarlinkListener.adopt(fileDescriptor: inherited.fileDescriptor)
            socketDescription = "socket-activated fd \(inherited.fileDescriptor)"
        } else {
            do {
                listener = try VarlinkListener.bind(path: paths.socketPath, mode: configuration.daemon.socketMode)
            } catch {
                await container.close()
                throw StartupError("moviesd: cannot listen on \(paths.socketPath): \(error)", exitCode: StartupError.unavailableExitCode)
            }
            socketDescription = paths.socketPath
        }

        let service = container.makeMoviesService(startedAt: Date(), daemonUID: uid, authorizedGID: authorizedGID)
        let server = container.makeServer(handlers: [service])
        let notifier = SystemdNotifier(environment: environment, logger: logger)

        let (events, sink) = AsyncStream<LifecycleEvent>.makeStream()
        let serverTask = Task {
            do {
                try await server.run(on: listener)
                sink.yield(.serverStopped(nil))
            } catch {
                sink.yield(.serverStopped("\(error)"))
            }
        }
        let signalTask = Task {
            for await signal in signals.signals { sink.yield(.signal(signal)) }
        }
        let watchdogTask = Task {
            guard let interval = notifier.watchdogInterval else { return }
            while !Task.isCancelled {
                notifier.watchdog()
                try? await Task.sleep(for: interval)
            }
        }

        let schedulerTask = Task { [scheduler = container.scheduler] in await scheduler?.run() }
        let probeTask = Task { [probe = container.probe] in await probe.run() }
        let externalWritesTask = Task { [container] in await container.watchExternalWrites() }

        logger.notice("moviesd \(MoviesDaemonVersion.current) serving io.moviesd.Movies on \(socketDescription); cache \(paths.databasePath); state \(paths.statePath); remote \(configuration.remote.baseURL) with \(credential)")
        notifier.ready(status: "Serving io.moviesd.Movies on \(socketDescription)")

        var exitStatus: Int32 = 0
        eventLoop: for await event in events {
            switch event {
            case .signal(let number) where number == SIGHUP:
                logger.info("SIGHUP: nothing to reload; restart the service to apply configuration changes")
            case .signal(let number):
                logger.notice("received signal \(number); shutting down")
                break eventLoop
            case .serverStopped(let failure):
                if let failure {
                    logger.error("the Varlink server stopped: \(failure)")
                    exitStatus = 1
                }
                break eventLoop
            }
        }

        notifier.stopping(status: "Shutting down")
        schedulerTask.cancel()
        probeTask.cancel()
        externalWritesTask.cancel()
        await container.refresher.cancelRunning()
        server.shutdown(gracePeriodSeconds: 10)
        _ = await serverTask.result
        _ = await schedulerTask.result
        await probeTask.value
        await externalWritesTask.value
        signalTask.cancel()
        watchdogTask.cancel()
        await container.close()
        withExtendedLifetime((lock, stateLock)) {}
        logger.notice("moviesd stopped")
        return exitStatus
    }

    private static func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// What ends the daemon's wait.
private enum LifecycleEvent: Sendable {
    case signal(Int32)
    case serverStopped(String?)
}
