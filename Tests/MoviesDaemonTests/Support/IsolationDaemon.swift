import Foundation
import Glibc
import MoviesTestSupport
import Synchronization
@testable import MoviesDaemon
import TMDBStub
@testable import Varlink

/// A daemon's real parts (composition root, databases, session files) over a data directory and a
/// TMDB stub, called in process as any local user: for the generated isolation test, which opens
/// one, restarts it, and opens another over a copy of its cache.
final class IsolationDaemon {
    let stub: TMDBStubServer
    let directory: ScratchDirectory
    private(set) var container: AppDIContainer
    private(set) var service: MoviesVarlinkService
    private let port: Int

    /// A daemon over a new data directory (with `cache`'s cache database files when given) and a
    /// stub of its own (or `stub`, running).
    init(stub given: TMDBStubServer? = nil, stubPort: Int? = nil, copyingCacheOf cache: ScratchDirectory? = nil) throws {
        let stub = given ?? TMDBStubServer(configuration: TMDBStubConfiguration())
        port = try stubPort ?? stub.start().port
        self.stub = stub
        directory = try ScratchDirectory()
        if let cache {
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: cache.file(DaemonPaths.databaseName + suffix)) {
                try FileManager.default.copyItem(atPath: cache.file(DaemonPaths.databaseName + suffix), toPath: directory.file(DaemonPaths.databaseName + suffix))
            }
        }
        (container, service) = try Self.open(directory, port: port)
    }

    private static func open(_ directory: ScratchDirectory, port: Int) throws -> (AppDIContainer, MoviesVarlinkService) {
        var configuration = DaemonConfiguration.defaults
        configuration.remote.baseURL = "http://127.0.0.1:\(port)/3/"
        configuration.remote.requestsPerSecond = 1000
        configuration.refresh.changeFeed = false
        let paths = DaemonPaths(socketPath: directory.file(DaemonPaths.socketName), databasePath: directory.file(DaemonPaths.databaseName))
        let container = try AppDIContainer(configuration: configuration, paths: paths, credential: .bearer("stub-token"), events: RecordingEventLog())
        return (container, container.makeMoviesService(startedAt: Date(), daemonUID: getuid(), authorizedGID: nil))
    }

    /// Stops the daemon's parts (databases closed, nothing kept in memory) and starts them again
    /// over the same files and stub.
    func restart() async throws {
        await container.close()
        (container, service) = try Self.open(directory, port: port)
    }

    /// Closes the databases, stops the stub (unless it was given) and removes the directory.
    func close(stoppingStub: Bool = true) async {
        await container.close()
        if stoppingStub { stub.stop() }
        directory.remove()
    }

    /// The replies `uid` gets for `method` with `parameters` (with `more`: every reply), each the
    /// parameters as a client reads them, or the error's name and parameters.
    func call(_ method: String, _ parameters: [String: JSONValue] = [:], uid: UInt32, more: Bool = false) async -> [Result<JSONValue, VarlinkError>] {
        let streamed = StreamedReplies()
        let writer = VarlinkReplyWriter(isStreaming: more) { pieces in streamed.add(Array(pieces.joined())) }
        let peer = PeerCredentials(pid: getpid(), uid: uid, gid: uid == 0 ? 0 : 65534)
        let call = VarlinkCall(method: "io.moviesd.Movies." + method, parameters: parameters, more: more, peer: peer)
        do throws(VarlinkError) {
            let final = JSONValue.object(try await service.handle(call, replies: writer))
            // As a client reads it: stored reply bytes are spliced in unparsed.
            return streamed.replies + [.success((try? JSONValue.parse(final.serialized())) ?? final)]
        } catch {
            return streamed.replies + [.failure(error)]
        }
    }

    /// The intermediate replies of a `more` call, parsed.
    private final class StreamedReplies: Sendable {
        private let collected = Mutex<[Result<JSONValue, VarlinkError>]>([])
        func add(_ bytes: [UInt8]) {
            let message = (try? JSONValue.parse(Array(bytes.prefix { $0 != 0 }))) ?? .null
            collected.withLock { $0.append(.success(message["parameters"] ?? message)) }
        }
        var replies: [Result<JSONValue, VarlinkError>] { collected.withLock { $0 } }
    }
}
