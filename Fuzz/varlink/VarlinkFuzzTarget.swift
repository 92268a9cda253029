// libFuzzer target: the Varlink framing and call decoding of the daemon's server, and every
// io.moviesd.Movies method of a real daemon service behind it. Built and run by scripts/fuzz; see
// Fuzz/README.md.
//
// One daemon service (real SQLite databases in a temporary directory, no TMDB credential so no
// network) serves a real Unix socket for the whole run. Each input is one connection: its first
// byte picks the write size (1–255 bytes, or 0 for all at once) and the user who connects (the
// byte modulo 3: the fuzzer's own, uid 1001 or uid 1002, switched for the connecting thread when
// the fuzzer runs as root, so inputs act on each other's watchlists and accounts), the rest is
// written as the client's byte stream (while replies are read, as a client must), then the
// client half-closes.
//
// Checks beyond "does not crash": the server answers and closes within 8 s; every reply is a
// JSON object of `parameters`/`error`/`continues` only, an error names a Varlink error, and there
// are never more final replies than calls sent; a reply to uid 1001 or 1002 never shows another
// uid's watchlist. The client side and the checks are
// Tests/MoviesDaemonTests/FuzzExchange.swift, which the test suite's replay of the inputs shares.
import Foundation
import Glibc
@testable import MoviesDaemon
@testable import Varlink

/// The daemon under test, started on the first input.
private final class Daemon: @unchecked Sendable {
    let socketPath: String
    private let container: AppDIContainer
    private let server: VarlinkServer

    init() {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("moviesd-fuzz-\(getpid())").path
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            fatalError("cannot make \(directory): \(error)")
        }
        socketPath = directory + "/io.moviesd.Movies"
        let paths = DaemonPaths(socketPath: socketPath, databasePath: directory + "/cache.sqlite3")
        do {
            // UpdateCatalogue may be called as the fuzzer's own user: its download goes to a closed
            // loopback port, never to TMDB's file server.
            var configuration = DaemonConfiguration()
            configuration.catalogue.url = "http://127.0.0.1:1/p/exports/"
            container = try AppDIContainer(configuration: configuration, paths: paths, credential: .none)
        } catch {
            fatalError("cannot start the service: \(error)")
        }
        let service = container.makeMoviesService(startedAt: Date(), daemonUID: getuid(), authorizedGID: nil)
        server = container.makeServer(handlers: [service])
        let listener: VarlinkListener
        do {
            listener = try VarlinkListener.bind(path: socketPath)
        } catch {
            fatalError("cannot bind \(socketPath): \(error)")
        }
        // Every user of the target connects: the socket is everyone's.
        chmod(directory, 0o755)
        chmod(socketPath, 0o666)
        let server = server
        Task.detached { try await server.run(on: listener) }
    }
}

private let daemon = Daemon()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVarlink(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard size > 0, let data else { return 0 }
    let chunk = Int(data[0]) == 0 ? Int.max : Int(data[0])
    let uid = FuzzExchange.user(selectedBy: data[0])
    let stream = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let replies: [[UInt8]]
    do {
        replies = try FuzzExchange.run(stream, chunk: chunk, path: daemon.socketPath, seconds: 8, as: uid)
    } catch {
        fatalError("the exchange failed: \(error) (a server that neither answers nor closes within 8 s is a hang)")
    }
    if let problem = FuzzExchange.problems(replies: replies, stream: stream, uid: uid).first { fatalError(problem) }
    return 0
}
