import Glibc

/// A listening Unix stream socket that a ``VarlinkServer`` accepts connections on.
public struct VarlinkListener: Sendable {
    /// The listening socket.
    let fileDescriptor: Int32
    /// The socket path when this listener created it (then the server removes it on shutdown).
    public let path: String?

    /// Binds a new listening socket at `path` with permissions `mode`.
    ///
    /// Refuses (``VarlinkSocketError/Code/addressInUse``) when a live server answers on `path`;
    /// removes a stale socket file left by a server that died; never removes a non-socket file.
    public static func bind(path: String, mode: UInt32 = 0o666) throws(VarlinkSocketError) -> VarlinkListener {
        guard let address = SocketOptions.unixAddress(path: path) else {
            throw VarlinkSocketError(code: .pathTooLong, errno: 0, path: path)
        }
        try removeStaleSocket(at: path, address: address)
        // Bound and listening under a hidden sibling name first, then linked into place: a client
        // never finds the path before it accepts connections (it used to get ECONNREFUSED in the
        // moment between bind and listen). When the sibling name does not fit, bind in place.
        let staging = stagingPath(for: path)
        let bindPath = staging.flatMap { SocketOptions.unixAddress(path: $0) != nil ? $0 : nil } ?? path
        if bindPath != path { unlink(bindPath) }
        let fd = try listeningSocket(at: bindPath, mode: mode, reportedPath: path)
        if bindPath != path {
            let linked = link(bindPath, path) == 0 ? 0 : errno
            unlink(bindPath)
            guard linked == 0 else {
                Glibc.close(fd)
                throw VarlinkSocketError(code: linked == EEXIST ? .addressInUse : .systemCallFailed, errno: linked, path: path)
            }
        }
        SocketOptions.makeNonBlocking(fd)
        return VarlinkListener(fileDescriptor: fd, path: path)
    }

    /// `.NAME.PID.bind` beside `path`.
    static func stagingPath(for path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let directory = path[...slash]
        let name = path[path.index(after: slash)...]
        return "\(directory).\(name).\(getpid()).bind"
    }

    /// A socket bound at `path` with permissions `mode` and listening; errors name `reportedPath`.
    private static func listeningSocket(at path: String, mode: UInt32, reportedPath: String) throws(VarlinkSocketError) -> Int32 {
        guard let address = SocketOptions.unixAddress(path: path) else {
            throw VarlinkSocketError(code: .pathTooLong, errno: 0, path: reportedPath)
        }
        let fd = SocketOptions.unixStreamSocket()
        guard fd >= 0 else { throw VarlinkSocketError(code: .systemCallFailed, errno: errno, path: reportedPath) }
        var bound = address
        let result = withUnsafePointer(to: &bound) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let failure = errno
            Glibc.close(fd)
            throw VarlinkSocketError(code: failure == EADDRINUSE ? .addressInUse : .systemCallFailed, errno: failure, path: reportedPath)
        }
        guard chmod(path, mode_t(mode)) == 0, listen(fd, 4096) == 0 else {
            let failure = errno
            Glibc.close(fd)
            unlink(path)
            throw VarlinkSocketError(code: .systemCallFailed, errno: failure, path: reportedPath)
        }
        return fd
    }

    /// Uses an already listening socket, e.g. fd 3 passed by systemd socket activation (`LISTEN_FDS`).
    /// The server never removes its path.
    public static func adopt(fileDescriptor: Int32) -> VarlinkListener {
        SocketOptions.makeNonBlocking(fileDescriptor)
        return VarlinkListener(fileDescriptor: fileDescriptor, path: nil)
    }

    private static func removeStaleSocket(at path: String, address: sockaddr_un) throws(VarlinkSocketError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw VarlinkSocketError(code: .pathOccupied, errno: EEXIST, path: path)
        }
        let probe = SocketOptions.unixStreamSocket()
        guard probe >= 0 else { throw VarlinkSocketError(code: .systemCallFailed, errno: errno, path: path) }
        SocketOptions.makeNonBlocking(probe)
        let failure = SocketOptions.connect(probe, to: address)
        Glibc.close(probe)
        switch failure {
        case ECONNREFUSED:
            unlink(path)
        case ENOENT:
            return
        default:
            throw VarlinkSocketError(code: .addressInUse, errno: failure == 0 ? EADDRINUSE : failure, path: path)
        }
    }
}
