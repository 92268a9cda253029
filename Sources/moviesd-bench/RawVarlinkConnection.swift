import Glibc
import SystemSupport

/// One Unix-socket connection to a Varlink server that sends pre-encoded calls and finds the end
/// of each reply (the NUL terminator) without parsing it, as `wrk` does for HTTP: the load
/// generator must cost the machine as little as possible. One call in flight at a time.
final class RawVarlinkConnection {
    /// The socket; -1 once closed.
    private(set) var fd: Int32
    /// When the call in flight was sent (monotonic ns); 0 when none is.
    var sentAt: UInt64 = 0
    /// Bytes of the reply received so far (kept only while `keepsReply`).
    private(set) var reply: [UInt8] = []
    /// Whether to keep the next reply's bytes (to check it once).
    var keepsReply = false
    /// Size of the last complete reply, in bytes (without the NUL).
    private(set) var lastReplySize = 0
    private var receivedSoFar = 0

    /// Connects to `path`.
    init(path: String) throws(BenchError) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket(2) failed: errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            Glibc.close(fd)
            throw BenchError("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let failure = errno
            Glibc.close(fd)
            throw BenchError("cannot connect to \(path): errno \(failure) (is moviesd running?)")
        }
    }

    deinit { close() }

    /// Sends `message` (which must end with the NUL) and starts the clock.
    func send(_ message: [UInt8]) throws(BenchError) {
        sentAt = MonotonicClock.now()
        receivedSoFar = 0
        reply.removeAll(keepingCapacity: true)
        var offset = 0
        while offset < message.count {
            let written = message.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress.map { $0 + offset }, message.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR || errno == EAGAIN {
                continue
            } else {
                throw BenchError("send failed: the server closed the connection")
            }
        }
    }

    /// Reads what is available into `scratch`; returns true when the reply is complete.
    func receive(into scratch: UnsafeMutableRawBufferPointer) throws(BenchError) -> Bool {
        let count = recv(fd, scratch.baseAddress, scratch.count, Int32(MSG_DONTWAIT))
        if count < 0, errno == EAGAIN || errno == EINTR { return false }
        guard count > 0 else { throw BenchError("the server closed the connection") }
        let chunk = UnsafeRawBufferPointer(rebasing: scratch[0..<count])
        if keepsReply { reply.append(contentsOf: chunk) }
        receivedSoFar += count
        // One call in flight, so the NUL ends the chunk that completes the reply.
        guard chunk[count - 1] == 0 else { return false }
        lastReplySize = receivedSoFar - 1
        if keepsReply { reply.removeLast() }
        return true
    }

    /// Closes the socket.
    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}
