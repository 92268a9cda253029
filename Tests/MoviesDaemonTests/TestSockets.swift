import Glibc
@testable import MoviesDaemon

/// Real Unix sockets for the tests: a datagram receiver (as systemd's notify socket) and a stream
/// listener. Each owns its descriptor; call `close()`.
struct TestSocket {
    let descriptor: Int32

    /// A datagram socket bound to `name` (a path or `@abstract`), with a 2-second receive timeout.
    static func datagramReceiver(_ name: String) throws -> TestSocket {
        try bound(name, type: Int32(SOCK_DGRAM.rawValue), listen: false)
    }

    /// A stream socket bound to `name` and listening.
    static func streamListener(_ name: String) throws -> TestSocket {
        try bound(name, type: Int32(SOCK_STREAM.rawValue), listen: true)
    }

    private static func bound(_ name: String, type: Int32, listen shouldListen: Bool) throws -> TestSocket {
        guard let address = UnixSocketAddress(name) else { throw SystemCallError("address", code: EINVAL) }
        let descriptor = socket(AF_UNIX, type | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SystemCallError("socket") }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let status = address.withSocketAddress { bind(descriptor, $0, $1) }
        guard status == 0 else {
            let error = SystemCallError("bind")
            Glibc.close(descriptor)
            throw error
        }
        if shouldListen, listen(descriptor, 8) != 0 {
            let error = SystemCallError("listen")
            Glibc.close(descriptor)
            throw error
        }
        return TestSocket(descriptor: descriptor)
    }

    /// The next datagram as text, or nil after the receive timeout.
    func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    func close() {
        Glibc.close(descriptor)
    }
}
