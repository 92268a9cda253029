import Glibc
import MoviesDaemon
import SystemSupport
@testable import Varlink

/// One client connection of the varlink fuzz target, shared by the target (scripts/fuzz compiles
/// this file into it) and the test suite's replay of its inputs (`FuzzInputsTests`).
enum FuzzExchange {
    enum Failure: Error { case socket(Int32), timedOut(written: Int) }

    /// Connects to `path`, writes `stream` in pieces of `chunk` bytes while reading replies (as a
    /// client must: the server stops reading a client that does not read), half-closes and reads
    /// until the server closes. Returns the replies, NUL stripped; throws `timedOut` when the server
    /// neither answered nor closed within `seconds`.
    static func run(_ stream: [UInt8], chunk: Int, path: String, seconds: Double) throws -> [[UInt8]] {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw Failure.socket(errno) }
        defer { close(fd) }
        guard let address = UnixSocketAddress(path) else { throw Failure.socket(ENAMETOOLONG) }
        guard address.withSocketAddress({ connect(fd, $0, $1) }) == 0 else { throw Failure.socket(errno) }
        let deadline = MonotonicClock.now() + UInt64(seconds * 1_000_000_000)
        var written = 0
        var halfClosed = false
        var input: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 65_536)
        while true {
            if written == stream.count, !halfClosed {
                shutdown(fd, Int32(SHUT_WR))
                halfClosed = true
            }
            guard MonotonicClock.now() < deadline else { throw Failure.timedOut(written: written) }
            var request = pollfd(fd: fd, events: Int16(POLLIN) | (halfClosed ? 0 : Int16(POLLOUT)), revents: 0)
            _ = poll(&request, 1, 100)
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

    /// What is wrong with the `replies` to `stream`: each must be a JSON object of `parameters`,
    /// `error` and `continues` only, an error must name a Varlink error, and there are never more
    /// final replies than calls sent.
    static func problems(replies: [[UInt8]], stream: [UInt8]) -> [String] {
        var problems: [String] = []
        let calls = stream.filter { $0 == 0 }.count + (stream.last == 0 || stream.isEmpty ? 0 : 1)
        var finals = 0
        for reply in replies {
            guard case .object(let members)? = try? JSONValue.parse(reply) else {
                problems.append("a reply is not a JSON object: \(String(decoding: reply, as: UTF8.self).debugDescription)")
                continue
            }
            if !Set(members.keys).isSubset(of: ["parameters", "error", "continues"]) {
                problems.append("a reply has other members: \(members.keys.sorted())")
            }
            if let error = members["error"], error.stringValue.map(VarlinkMessage.isValidMethodName) != true {
                problems.append("an error reply does not name an error: \(error)")
            }
            if members["continues"] != .bool(true) { finals += 1 }
        }
        if finals > calls { problems.append("\(finals) final replies to \(calls) calls") }
        return problems
    }
}
