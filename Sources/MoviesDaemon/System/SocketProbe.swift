import Glibc

/// Checks whether something already serves a Unix stream socket, to refuse a second daemon clearly.
public enum SocketProbe {
    /// Whether a `connect(2)` to the stream socket at `path` (or abstract `@name`) succeeds.
    ///
    /// A stale socket file left by a dead daemon refuses connections (`ECONNREFUSED`), so this is false
    /// for it and the caller may unlink and rebind.
    public static func isServing(path: String) -> Bool {
        guard let address = UnixSocketAddress(path) else { return false }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return address.withSocketAddress { pointer, length in
            var status: Int32
            repeat {
                status = connect(descriptor, pointer, length)
            } while status != 0 && errno == EINTR
            return status == 0
        }
    }

    /// Refuses to start a second daemon on `path` when something already answers there.
    /// - Throws: ``StartupError`` "another moviesd is already serving PATH" (exit 69).
    public static func refuseIfServing(path: String) throws(StartupError) {
        guard isServing(path: path) else { return }
        throw StartupError(
            "moviesd: another moviesd is already serving \(path) (stop it, or pass --socket PATH)",
            exitCode: StartupError.unavailableExitCode
        )
    }
}
