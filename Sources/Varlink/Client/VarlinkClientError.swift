import Glibc

/// Why a ``VarlinkClient`` could not connect or complete a call.
public struct VarlinkClientError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable machine code.
    public enum Code: Sendable, Hashable {
        /// connect(2) failed with this errno: `ENOENT` (no socket), `ECONNREFUSED` (no server),
        /// `EACCES` (no permission), ...
        case connectFailed(Int32)
        /// No reply arrived within the timeout.
        case timedOut
        /// The server sent something that is not a Varlink reply.
        case protocolViolation
        /// The connection closed (or failed) before the final reply.
        case closed
    }

    /// What went wrong.
    public var code: Code
    /// The socket path.
    public var path: String

    /// Creates an error.
    public init(code: Code, path: String) {
        self.code = code
        self.path = path
    }

    /// One human sentence naming the socket.
    public var description: String {
        switch code {
        case .connectFailed(let number):
            return "cannot connect to \(path): \(String(cString: strerror(number)))"
        case .timedOut:
            return "no reply from \(path) in time"
        case .protocolViolation:
            return "\(path) sent a message that is not a valid Varlink reply"
        case .closed:
            return "\(path) closed the connection before the final reply"
        }
    }
}
