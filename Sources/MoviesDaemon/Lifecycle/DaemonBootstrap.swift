import Foundation
import Glibc
import Varlink

/// Everything the daemon opens before it serves, and nothing it runs: configuration, logger,
/// paths, locks, credential, the store (in the container) and the listening socket. `open` either
/// returns all of it or throws the startup error (with its exit status) having closed what it opened.
struct DaemonBootstrap {
    let configuration: DaemonConfiguration
    let logger: Logger
    let paths: DaemonPaths
    /// Installed before anything a client can see (the socket): a SIGTERM from then on is a clean
    /// stop, never the default action's death with 143.
    let signals: SignalWatcher
    let credential: LoadedCredential
    let authorizedGID: UInt32?
    let container: AppDIContainer
    let listener: VarlinkListener
    /// The socket as the log names it.
    let socketDescription: String
    /// Held for the daemon's lifetime: one daemon per cache file and per state database.
    private let locks: (cache: InstanceLock, state: InstanceLock)

    /// Configures, locks, opens the databases and listens (or adopts a socket-activated listener).
    static func open(_ arguments: DaemonArguments, environment: [String: String]) async throws -> DaemonBootstrap {
        let uid = getuid()
        let configuration = try DaemonConfiguration.load(arguments: arguments, environment: environment, uid: uid)
        var logger = Logger(minimumLevel: configuration.daemon.logLevel, environment: environment)
        let paths = DaemonPaths.resolve(configuration, environment: environment, uid: uid)
        let signals = try SignalWatcher()
        let activated = try SocketActivation.takeInheritedSockets()
        try paths.prepare(socketActivated: !activated.isEmpty)
        let lock = try InstanceLock(databasePath: paths.databasePath)
        // Two daemons with different cache files in one directory would share the state database.
        let stateLock = try InstanceLock(databasePath: paths.statePath)
        let credential = try CredentialLoader.load(environment: environment)
        if let secret = credential.secret { logger = logger.redacting(secret) }
        let authorizedGID = try configuration.resolvedAuthorizedGroupID()

        // Each connection is a descriptor; leave room for the database, the remote and the listener.
        let needed = UInt64(configuration.daemon.maxConnections) + 256
        let openFiles = FileDescriptorLimit.raise(toAtLeast: needed)
        if openFiles < needed {
            logger.warning("the open-file limit is \(openFiles), below the \(needed) that MaxConnections=\(configuration.daemon.maxConnections) needs; raise LimitNOFILE=")
        }

        let container = try AppDIContainer(configuration: configuration, paths: paths, credential: credential, events: LoggerEventLog(logger: logger), environment: environment)
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
        return DaemonBootstrap(
            configuration: configuration, logger: logger, paths: paths, signals: signals, credential: credential,
            authorizedGID: authorizedGID, container: container, listener: listener, socketDescription: socketDescription,
            locks: (lock, stateLock))
    }

    /// Closes the databases cleanly and releases the locks (after every service has stopped).
    func close() async {
        await container.close()
        withExtendedLifetime(locks) {}
    }
}
