/// The daemon `movies` talks to: its socket, whose daemon that is, and how it was chosen
/// (``SocketPathResolver``). `movies status` shows it as its first line.
struct DaemonSocket: Hashable, Sendable {
    /// Whose daemon a socket is.
    enum Kind: Hashable, Sendable {
        /// The system service (`/run/moviesd/io.moviesd.Movies`), shared by every user.
        case system
        /// This user's own daemon, the user service (`$XDG_RUNTIME_DIR/moviesd/io.moviesd.Movies`).
        case user
        /// Some other socket, given with `--socket` or `MOVIESD_SOCKET`.
        case other
    }

    /// How the socket was chosen.
    enum Source: Hashable, Sendable {
        /// `--socket PATH`.
        case option
        /// `$MOVIESD_SOCKET`.
        case environment
        /// Looked for: the user's socket if it exists, else the system's.
        case found
    }

    /// The socket path.
    let path: String
    /// Whose daemon it is.
    let kind: Kind
    /// How it was chosen.
    let source: Source

    /// One line for `movies status`: "user service (yours), /run/user/1000/moviesd/io.moviesd.Movies".
    var description: String {
        let whose = switch kind {
        case .system: "system service"
        case .user: "user service (yours)"
        case .other: "the daemon on the socket"
        }
        let how = switch source {
        case .option: " (--socket)"
        case .environment: " (MOVIESD_SOCKET)"
        case .found: ""
        }
        return "\(whose), \(path)\(how)"
    }
}
