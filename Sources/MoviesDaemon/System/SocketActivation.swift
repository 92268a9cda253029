import Glibc

/// Systemd socket activation without libsystemd, as sd_listen_fds(3) with `unset_environment` true.
///
/// systemd passes `LISTEN_FDS` descriptors starting at 3 to the process whose pid is `LISTEN_PID`,
/// with optional `LISTEN_FDNAMES` (colon-separated).
public enum SocketActivation {
    /// The first inherited descriptor (`SD_LISTEN_FDS_START`).
    public static let firstDescriptor: Int32 = 3

    /// The sockets `environment` describes for process `pid`: empty when `LISTEN_PID` or `LISTEN_FDS`
    /// is unset or the sockets are meant for another process.
    /// - Throws: ``StartupError`` when a variable is present but malformed.
    public static func parse(environment: [String: String], pid: Int32) throws(StartupError) -> [ActivatedSocket] {
        guard let pidText = environment["LISTEN_PID"], !pidText.isEmpty else { return [] }
        guard let listenPID = Int32(pidText), listenPID > 0 else {
            throw StartupError("moviesd: socket activation: LISTEN_PID '\(pidText)' is not a process id", exitCode: StartupError.systemExitCode)
        }
        guard listenPID == pid else { return [] }
        guard let countText = environment["LISTEN_FDS"], !countText.isEmpty else { return [] }
        guard let count = Int32(countText), count >= 0, count <= Int32.max - firstDescriptor else {
            throw StartupError("moviesd: socket activation: LISTEN_FDS '\(countText)' is not a descriptor count", exitCode: StartupError.systemExitCode)
        }
        let names = environment["LISTEN_FDNAMES"].map { $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init) }
        let usableNames = names?.count == Int(count) ? names : nil
        return (0..<count).map { index in
            ActivatedSocket(fileDescriptor: firstDescriptor + index, name: usableNames?[Int(index)])
        }
    }

    /// The sockets this process inherited: parses the real environment, unsets `LISTEN_PID`,
    /// `LISTEN_FDS` and `LISTEN_FDNAMES` (so children do not inherit them), sets `FD_CLOEXEC` on each
    /// descriptor and checks that each is a listening Unix stream socket.
    /// - Throws: ``StartupError`` for malformed variables or a descriptor of the wrong kind.
    public static func takeInheritedSockets() throws(StartupError) -> [ActivatedSocket] {
        var environment: [String: String] = [:]
        for key in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] {
            if let value = getenv(key) { environment[key] = String(cString: value) }
            unsetenv(key)
        }
        let sockets = try parse(environment: environment, pid: getpid())
        for socket in sockets {
            let flags = fcntl(socket.fileDescriptor, F_GETFD)
            guard flags >= 0, fcntl(socket.fileDescriptor, F_SETFD, flags | FD_CLOEXEC) == 0 else {
                throw StartupError("moviesd: socket activation: file descriptor \(socket.fileDescriptor): \(SystemCallError("fcntl").reason)", exitCode: StartupError.systemExitCode)
            }
            try validateListeningUnixStream(socket.fileDescriptor)
        }
        return sockets
    }

    /// Checks that `descriptor` is a Unix-domain stream socket in the listening state.
    /// - Throws: ``StartupError`` saying what it is instead and what to fix in the socket unit.
    public static func validateListeningUnixStream(_ descriptor: Int32) throws(StartupError) {
        func failure(_ what: String) -> StartupError {
            StartupError(
                "moviesd: socket activation: file descriptor \(descriptor) \(what); expected a listening Unix stream socket (ListenStream=/path in moviesd.socket)",
                exitCode: StartupError.configurationExitCode
            )
        }
        var type: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_TYPE, &type, &length) == 0 else {
            throw failure("is not a socket (\(SystemCallError("getsockopt").reason))")
        }
        guard type == Int32(SOCK_STREAM.rawValue) else { throw failure("is not a stream socket") }
        var address = sockaddr_storage()
        var addressLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &addressLength) }
        }
        guard named == 0 else { throw failure("has no address (\(SystemCallError("getsockname").reason))") }
        guard Int32(address.ss_family) == AF_UNIX else { throw failure("is not a Unix-domain socket") }
        var listening: Int32 = 0
        length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0, listening != 0 else {
            throw failure("is not listening (Accept=yes is not supported)")
        }
    }
}
