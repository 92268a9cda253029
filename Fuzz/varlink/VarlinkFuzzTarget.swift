// libFuzzer target: the Varlink framing and call decoding of the daemon's server, and every
// io.moviesd.Movies method of a real daemon service behind it. Built and run by scripts/fuzz; see
// Fuzz/README.md.
//
// One daemon service (real SQLite databases in a temporary directory, no TMDB credential so no
// network) serves a real Unix socket for the whole run. Each input is one connection: its first
// byte picks the write size (1–255 bytes, or 0 for all at once), the rest is written as the
// client's byte stream (while replies are read, as a client must), then the client half-closes.
//
// Checks beyond "does not crash": the server answers and closes within 8 s; every reply is a
// JSON object of `parameters`/`error`/`continues` only, an error names a Varlink error, and there
// are never more final replies than calls sent.
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
            container = try AppDIContainer(configuration: DaemonConfiguration(), paths: paths, credential: .none)
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
        let server = server
        Task.detached { try await server.run(on: listener) }
    }
}

private let daemon = Daemon()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVarlink(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard size > 0, let data else { return 0 }
    let chunk = Int(data[0]) == 0 ? Int.max : Int(data[0])
    let stream = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let replies = exchange(stream, chunk: chunk, path: daemon.socketPath)
    let calls = stream.filter { $0 == 0 }.count + (stream.last == 0 || stream.isEmpty ? 0 : 1)
    var finals = 0
    for reply in replies {
        guard case .object(let members)? = try? JSONValue.parse(reply) else {
            fatalError("a reply is not a JSON object: \(String(decoding: reply, as: UTF8.self).debugDescription)")
        }
        guard Set(members.keys).isSubset(of: ["parameters", "error", "continues"]) else {
            fatalError("a reply has other members: \(members.keys.sorted())")
        }
        if let error = members["error"] {
            guard let name = error.stringValue, VarlinkMessage.isValidMethodName(name) else {
                fatalError("an error reply does not name an error: \(error)")
            }
        }
        if members["continues"] != .bool(true) { finals += 1 }
    }
    guard finals <= calls else { fatalError("\(finals) final replies to \(calls) calls") }
    return 0
}

/// Connects, writes `stream` in pieces of `chunk` bytes while reading replies, half-closes and
/// reads until the server closes. Returns the replies (NUL stripped); a server that neither
/// answers nor closes within 8 s is a failure.
private func exchange(_ stream: [UInt8], chunk: Int, path: String) -> [[UInt8]] {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard fd >= 0 else { fatalError("socket: \(errno)") }
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard connected == 0 else { fatalError("cannot connect to the daemon: \(errno)") }

    let deadline = MonotonicClock.now() + 8_000_000_000
    var written = 0
    var halfClosed = false
    var input: [UInt8] = []
    var scratch = [UInt8](repeating: 0, count: 65_536)
    while true {
        if written == stream.count, !halfClosed {
            shutdown(fd, Int32(SHUT_WR))
            halfClosed = true
        }
        var request = pollfd(fd: fd, events: Int16(POLLIN) | (halfClosed ? 0 : Int16(POLLOUT)), revents: 0)
        let remaining = Int64(deadline) - Int64(MonotonicClock.now())
        guard remaining > 0 else {
            fatalError("the server neither answered nor closed within 8 s (\(written) of \(stream.count) bytes written)")
        }
        guard poll(&request, 1, Int32(remaining / 1_000_000) + 1) >= 0 || errno == EINTR else { fatalError("poll: \(errno)") }
        if request.revents & Int16(POLLOUT) != 0, !halfClosed {
            let count = min(chunk, stream.count - written)
            let sent = stream.withUnsafeBytes { send(fd, $0.baseAddress.map { $0 + written }, count, Int32(MSG_NOSIGNAL)) }
            if sent > 0 {
                written += sent
            } else if errno != EAGAIN && errno != EINTR {
                halfClosed = true  // the server closed (after an error reply): read what it said
            }
        }
        if request.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            let count = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                input.append(contentsOf: scratch[0..<count])
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                break
            }
        }
    }
    var replies = input.split(separator: 0, omittingEmptySubsequences: false).map(Array.init)
    if replies.last?.isEmpty == true { replies.removeLast() }
    return replies
}
