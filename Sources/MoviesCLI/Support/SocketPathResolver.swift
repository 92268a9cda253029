/// Decides which daemon to talk to: `--socket`, else `$MOVIESD_SOCKET`, else the user's own daemon
/// (the user service's socket, `$XDG_RUNTIME_DIR/moviesd/io.moviesd.Movies`, or
/// `/run/user/<uid>/moviesd/…` without the variable) when that socket exists, else the system
/// daemon's `/run/moviesd/io.moviesd.Movies`. The same rule for root: a root without a user daemon
/// of its own gets the system's.
struct SocketPathResolver {
    /// The system daemon's socket.
    static let systemPath = "/run/moviesd/io.moviesd.Movies"
    /// The socket's path inside the user's runtime directory.
    static let userSocketName = "moviesd/io.moviesd.Movies"

    /// The process environment.
    let environment: [String: String]
    /// The caller's real user id.
    let uid: UInt32
    /// Whether a file exists at a path.
    let fileExists: (String) -> Bool

    /// The user service's socket path for this user (whether or not it exists).
    var userPath: String {
        // An empty or relative XDG_RUNTIME_DIR is ignored, as the XDG Base Directory specification says.
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/run/user/\(uid)"
        return (runtime.hasSuffix("/") ? runtime : runtime + "/") + Self.userSocketName
    }

    /// The socket path to use, given the `--socket` value if any.
    func resolve(explicit: String?) -> String { choose(explicit: explicit).path }

    /// The daemon to use and how it was chosen, given the `--socket` value if any.
    func choose(explicit: String?) -> DaemonSocket {
        if let explicit, !explicit.isEmpty { return DaemonSocket(path: explicit, kind: kind(of: explicit), source: .option) }
        if let fromEnvironment = environment["MOVIESD_SOCKET"], !fromEnvironment.isEmpty {
            return DaemonSocket(path: fromEnvironment, kind: kind(of: fromEnvironment), source: .environment)
        }
        let user = userPath
        if fileExists(user) { return DaemonSocket(path: user, kind: .user, source: .found) }
        return DaemonSocket(path: Self.systemPath, kind: .system, source: .found)
    }

    /// Which daemon a socket path names: the system's, this user's user service, or another one.
    func kind(of path: String) -> DaemonSocket.Kind {
        if path == Self.systemPath { return .system }
        if path == userPath { return .user }
        return .other
    }
}
