import Glibc

/// Whether something listens on a Unix socket path: the socket file exists from `bind` on, but
/// connections are refused until `listen`, so a test waits for this, not for the file. (The daemon
/// itself needs no probe: `VarlinkListener.bind` refuses a path a live server answers on.)
public enum UnixSocketProbe {
    /// Whether a connection to `path` is accepted (it is closed at once).
    public static func acceptsConnections(_ path: String) -> Bool {
        let descriptor = connect(path)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }

    /// A blocking stream socket connected to `path` (the caller closes it), or -1 with `errno`
    /// saying why.
    public static func connect(_ path: String) -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return -1 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(descriptor)
            errno = ENAMETOOLONG
            return -1
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let failure = errno
            close(descriptor)
            errno = failure
            return -1
        }
        return descriptor
    }
}
