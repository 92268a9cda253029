import Glibc

/// Why a listening socket could not be set up.
public struct VarlinkSocketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as a stable machine code.
    public enum Code: Sendable, Hashable {
        /// The path does not fit in a `sockaddr_un` (about 107 bytes) or contains a NUL.
        case pathTooLong
        /// A live server already answers on the path.
        case addressInUse
        /// Something that is not a socket exists at the path; it is left alone.
        case pathOccupied
        /// socket(2), bind(2), chmod(2) or listen(2) failed with ``VarlinkSocketError/errno``.
        case systemCallFailed
        /// epoll is not available.
        case eventLoopUnavailable
    }

    /// What went wrong.
    public var code: Code
    /// The errno of the failed system call, or 0.
    public var errno: Int32
    /// The socket path, when there is one.
    public var path: String?

    /// Creates an error.
    public init(code: Code, errno: Int32, path: String?) {
        self.code = code
        self.errno = errno
        self.path = path
    }

    /// One human sentence.
    public var description: String {
        let location = path.map { " at \($0)" } ?? ""
        switch code {
        case .pathTooLong: return "socket path\(location) is too long for a Unix socket"
        case .addressInUse: return "another server is already listening\(location)"
        case .pathOccupied: return "a file that is not a socket exists\(location)"
        case .systemCallFailed: return "cannot listen\(location): \(String(cString: strerror(errno)))"
        case .eventLoopUnavailable: return "epoll is unavailable: \(String(cString: strerror(errno)))"
        }
    }
}
