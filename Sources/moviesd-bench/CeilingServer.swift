import Glibc
import SystemSupport
import Varlink

/// `moviesd-bench ceiling`: the least a Varlink server can do for the load generator. `threads`
/// epoll loops (by default one per CPU it may run on, as moviesd's event loops), connections
/// handed to them in turn, every message answered with the same reply bytes (one `Search` reply,
/// taken from the daemon first): no parsing beyond finding each message's NUL, no lookup, no splice.
/// moviesd ÷ this, under the same load, is how close the daemon is to what the socket allows.
///
/// With `replies` (`--requests-file`), each call is answered with its own page's reply, found by
/// the call's exact bytes (one hash lookup; a call not in the file closes its connection, so the
/// load generator fails loudly): the daemon's reply for that call, so the memory the replies come
/// from is as large as the daemon's (1,000 pages: 12 MB, beyond the CPU's caches), which one reply
/// sent over and over is not.
struct CeilingServer: Sendable {
    let socketPath: String
    /// The reply sent to every call (NUL included) that `replies` has no entry for.
    let reply: [UInt8]
    /// Replies by call message (without its NUL), NUL included.
    var replies: [[UInt8]: [UInt8]] = [:]
    /// The epoll loops (threads) serving connections.
    var threads = UsableProcessors.count()

    /// The reply the daemon at `daemonSocket` gives to a `Search` for `target` (cache_first), as
    /// a message with its NUL.
    static func reply(from daemonSocket: String, target: SearchTarget) throws(BenchError) -> [UInt8] {
        try reply(from: daemonSocket, to: BenchCall.search(target, policy: "cache_first"))
    }

    /// The daemon's reply to each of `targets` under `policy`, by the message the load generator
    /// sends for it (`BenchCall.message`, without its NUL).
    static func replies(from daemonSocket: String, targets: [SearchTarget], policy: String) throws(BenchError) -> [[UInt8]: [UInt8]] {
        var replies: [[UInt8]: [UInt8]] = [:]
        for target in targets {
            let call = BenchCall.search(target, policy: policy)
            replies[Array(call.message.dropLast())] = try reply(from: daemonSocket, to: call)
        }
        return replies
    }

    /// The daemon's reply to `call`, re-serialized from its parameters (the same members and
    /// values, keys sorted as the daemon writes them), with its NUL.
    private static func reply(from daemonSocket: String, to call: BenchCall) throws(BenchError) -> [UInt8] {
        var message: [UInt8]?
        do {
            let client = try VarlinkClient(unixPath: daemonSocket, timeoutSeconds: 60)
            defer { client.close() }
            try client.call(call.method, parameters: call.parameters) { reply in
                message = JSONValue.object(["parameters": reply.parameters]).serialized()
            }
        } catch {
            throw BenchError("ceiling: asking the daemon for \(call): \(error)")
        }
        guard var bytes = message else { throw BenchError("ceiling: the daemon sent no reply for \(call)") }
        bytes.append(0)
        return bytes
    }

    /// Serves until killed (the bench stops it); throws when the socket cannot be set up.
    func run() throws(BenchError) -> Never {
        unlink(socketPath)
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard listener >= 0 else { throw BenchError("ceiling: socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array(socketPath.utf8)
        guard path.count < MemoryLayout.size(ofValue: address.sun_path) else { throw BenchError("ceiling: socket path too long") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(listener, 512) == 0 else { throw BenchError("ceiling: bind/listen: \(String(cString: strerror(errno)))") }
        var loops: [Epoll] = []
        for _ in 0..<max(1, threads) {
            do {
                loops.append(try Epoll())
            } catch {
                throw BenchError("ceiling: epoll: \(error)")
            }
        }
        _ = loops[0].add(listener, events: Epoll.readable)
        print("ceiling listening on \(socketPath) reply_bytes=\(reply.count) threads=\(loops.count)")
        fflush(nil)
        for loop in loops.dropFirst() {
            let server = self
            let owned = LoopHandle(epoll: loop)
            _ = NativeThread.detached { server.serve(owned.epoll, listener: -1, loops: []) }
        }
        serve(loops[0], listener: listener, loops: loops)
    }

    /// One loop: answers the calls of its connections; the first also accepts, handing each new
    /// connection to the next loop in turn.
    private func serve(_ epoll: Epoll, listener: Int32, loops: [Epoll]) -> Never {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var next = 0
        while true {
            for (fd, _, _) in epoll.waitForEvents(timeoutMilliseconds: -1) {
                if fd == listener {
                    while case let client = accept(listener, nil, nil), client >= 0 {
                        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
                        _ = loops[next % loops.count].add(client, events: Epoll.readable)
                        next += 1
                    }
                    continue
                }
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard count > 0 else {
                    if count == 0 || (errno != EAGAIN && errno != EINTR) { close(fd) }
                    continue
                }
                // One reply for every complete message (each ends with NUL); the load generator
                // keeps one call in flight a connection, so a message never spans two reads here.
                var start = 0
                for end in 0..<count where buffer[end] == 0 {
                    let found = replies.isEmpty ? reply : replies[Array(buffer[start..<end])]
                    start = end + 1
                    guard let answer = found else {
                        close(fd)
                        break
                    }
                    var sent = 0
                    while sent < answer.count {
                        let written = answer.withUnsafeBytes { bytes in
                            bytes.baseAddress.map { send(fd, $0 + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) } ?? -1
                        }
                        if written > 0 { sent += written } else if errno != EAGAIN && errno != EINTR { break }
                    }
                }
            }
        }
    }
}

/// An epoll set handed to the thread that waits on it; the accepting thread only adds descriptors
/// to it (epoll_ctl is safe from any thread), never waits on it.
private final class LoopHandle: @unchecked Sendable {
    let epoll: Epoll
    init(epoll: Epoll) { self.epoll = epoll }
}
