import Glibc

/// Thin wrappers over the BSD socket calls the stub needs (listening, accepting, resetting).
enum TCPSocket {
    /// A socket call failed.
    struct Failure: Error, CustomStringConvertible {
        /// The call that failed.
        var call: String
        /// `errno` after the call.
        var code: Int32

        var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }

    /// A non-blocking listening socket bound to `host:port` (port 0 = kernel-assigned), with SO_REUSEADDR.
    static func listen(host: String, port: Int) throws(Failure) -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(call: "socket", code: errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            close(fd)
            throw Failure(call: "inet_pton(\(host))", code: EINVAL)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw Failure(call: "bind", code: code)
        }
        guard Glibc.listen(fd, 128) == 0 else {
            let code = errno
            close(fd)
            throw Failure(call: "listen", code: code)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return (fd, boundPort(fd))
    }

    /// The local port `fd` is bound to.
    static func boundPort(_ fd: Int32) -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Accepts one pending connection (blocking mode, close-on-exec), or nil if none is pending.
    static func acceptPending(_ listener: Int32) -> Int32? {
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { return nil }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return fd
    }

    /// Waits up to `milliseconds` for `fd` to become readable (or hung up).
    static func waitReadable(_ fd: Int32, milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    /// Stops a listening socket at once and closes it. `shutdown` first, because another thread's
    /// `poll` holds a reference that would keep the socket in LISTEN (accepting into its backlog)
    /// until the poll returns; shutdown leaves LISTEN immediately and wakes the poll.
    static func closeListener(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }

    /// Closes `fd` with SO_LINGER 0 so the peer sees a TCP RST.
    static func reset(_ fd: Int32) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close(fd)
    }

    /// Writes all of `bytes`, returning false if the peer went away.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { send(fd, $0.baseAddress.map { $0 + offset }, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}
