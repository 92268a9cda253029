/// Decides which socket to talk to: `--socket`, else `$MOVIESD_SOCKET`, else the system socket for
/// root, else the user's (`$XDG_RUNTIME_DIR/moviesd/…`, or `/run/user/<uid>/moviesd/…`), falling
/// back to the system socket when only that one exists.
struct SocketPathResolver {
    /// The system daemon's socket.
    static let systemPath = "/run/moviesd/io.moviesd.Movies"

    /// The process environment.
    let environment: [String: String]
    /// The caller's real user id.
    let uid: UInt32
    /// Whether a file exists at a path.
    let fileExists: (String) -> Bool

    /// The socket path to use, given the `--socket` value if any.
    func resolve(explicit: String?) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let fromEnvironment = environment["MOVIESD_SOCKET"], !fromEnvironment.isEmpty { return fromEnvironment }
        if uid == 0 { return Self.systemPath }
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/run/user/\(uid)"
        let userPath = runtime + "/moviesd/io.moviesd.Movies"
        if !fileExists(userPath), fileExists(Self.systemPath) { return Self.systemPath }
        return userPath
    }
}
