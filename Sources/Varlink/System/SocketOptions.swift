import Glibc

/// Small wrappers around the socket calls the server and client share.
enum SocketOptions {
    /// Layout-compatible with `struct ucred` (hidden from Swift's Glibc module).
    private struct UnixCredentials {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    /// Makes `fd` non-blocking and close-on-exec.
    static func makeNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
        let descriptorFlags = fcntl(fd, F_GETFD)
        if descriptorFlags >= 0 { _ = fcntl(fd, F_SETFD, descriptorFlags | FD_CLOEXEC) }
    }

    /// The credentials of the peer of a connected Unix socket (`SO_PEERCRED`), if available.
    static func peerCredentials(of fd: Int32) -> PeerCredentials? {
        var credentials = UnixCredentials()
        var length = socklen_t(MemoryLayout<UnixCredentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
              Int(length) == MemoryLayout<UnixCredentials>.size else { return nil }
        return PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
    }

    /// A `sockaddr_un` for `path`, or `nil` when the path does not fit.
    static func unixAddress(path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity, !bytes.contains(0) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
        }
        return address
    }

    /// Connects `fd` to the Unix socket at `address`; returns 0 or the errno.
    static func connect(_ fd: Int32, to address: sockaddr_un) -> Int32 {
        var address = address
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0 ? 0 : errno
    }

    /// A new Unix stream socket (close-on-exec), or -1.
    static func unixStreamSocket() -> Int32 {
        socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }
}
