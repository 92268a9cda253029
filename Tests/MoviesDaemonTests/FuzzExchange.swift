import Glibc
import MoviesDaemon
import SystemSupport
@testable import Varlink

/// One client connection of the varlink fuzz target, shared by the target (scripts/fuzz compiles
/// this file into it) and the test suite's replay of its inputs (`FuzzInputsTests`).
enum FuzzExchange {
    enum Failure: Error { case socket(Int32), timedOut(written: Int) }

    /// The users an input connects as, picked by its first byte (`user(selectedBy:)`): the
    /// process's own (root in CI), alice and bob, so inputs act on each other's data (issue 31).
    static let users: [UInt32?] = [nil, 1001, 1002]

    /// The uid the input whose first byte is `byte` connects as (`nil`: the process's own).
    static func user(selectedBy byte: UInt8) -> UInt32? { users[Int(byte) % users.count] }

    /// `syscall(2)`, which Swift does not import (it is variadic): the kernel's setresuid changes
    /// the calling thread's credentials only, where glibc's wrapper changes every thread's.
    private typealias RawSyscall = @convention(c) (Int, Int, Int, Int) -> Int
    /// `SYS_setresuid` (asm/unistd_64.h; the C macro is not imported).
    #if arch(arm64)
    private static let setresuidNumber = 147
    #else
    private static let setresuidNumber = 117
    #endif
    private static let rawSyscall: RawSyscall? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syscall").map { unsafeBitCast($0, to: RawSyscall.self) }

    /// Connects `fd` to `address` with this thread's effective uid `uid` (when running as root;
    /// otherwise as is), so the daemon's SO_PEERCRED names `uid`; the thread is root again after.
    private static func connect(_ fd: Int32, to address: UnixSocketAddress, as uid: UInt32?) -> Int32 {
        guard let uid, getuid() == 0, let rawSyscall else { return address.withSocketAddress { Glibc.connect(fd, $0, $1) } }
        guard rawSyscall(setresuidNumber, -1, Int(uid), -1) == 0 else { return -1 }
        defer { _ = rawSyscall(setresuidNumber, -1, 0, -1) }
        return address.withSocketAddress { Glibc.connect(fd, $0, $1) }
    }

    /// Connects to `path`, writes `stream` in pieces of `chunk` bytes while reading replies (as a
    /// client must: the server stops reading a client that does not read), half-closes and reads
    /// until the server closes. Returns the replies, NUL stripped; throws `timedOut` when the server
    /// neither answered nor closed within `seconds`.
    static func run(_ stream: [UInt8], chunk: Int, path: String, seconds: Double, as uid: UInt32? = nil) throws -> [[UInt8]] {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw Failure.socket(errno) }
        defer { close(fd) }
        guard let address = UnixSocketAddress(path) else { throw Failure.socket(ENAMETOOLONG) }
        guard connect(fd, to: address, as: uid) == 0 else { throw Failure.socket(errno) }
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
    /// final replies than calls sent; a reply to a user other than root shows no other user's
    /// watchlist (`owner` is never another uid).
    static func problems(replies: [[UInt8]], stream: [UInt8], uid: UInt32? = nil) -> [String] {
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
            if let uid, let owner = otherOwner(in: .object(members), than: uid) {
                problems.append("a reply to uid \(uid) shows uid \(owner)'s watchlist")
            }
        }
        if finals > calls { problems.append("\(finals) final replies to \(calls) calls") }
        return problems
    }

    /// An `owner` member anywhere in `value` that is not `uid`.
    static func otherOwner(in value: JSONValue, than uid: UInt32) -> Int64? {
        switch value {
        case .object(let members):
            if let owner = members["owner"]?.intValue, owner != Int64(uid) { return owner }
            return members.values.lazy.compactMap { otherOwner(in: $0, than: uid) }.first
        case .array(let items):
            return items.lazy.compactMap { otherOwner(in: $0, than: uid) }.first
        default:
            return nil
        }
    }
}
