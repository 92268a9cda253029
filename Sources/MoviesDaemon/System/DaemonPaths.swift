import Glibc

/// Where the daemon's socket, databases and configuration file live.
///
/// Defaults: as root, `/run/moviesd/io.moviesd.Movies`, `/var/lib/moviesd/cache.sqlite3` and
/// `/etc/moviesd/moviesd.conf`; otherwise `$XDG_RUNTIME_DIR/moviesd/io.moviesd.Movies` (falling back to
/// `/run/user/UID`), `$XDG_STATE_HOME/moviesd/cache.sqlite3` (falling back to `~/.local/state`) and
/// `$XDG_CONFIG_HOME/moviesd/moviesd.conf` (falling back to `~/.config`). Relative or empty XDG
/// variables are ignored, as the XDG Base Directory specification requires.
public struct DaemonPaths: Sendable, Hashable {
    /// The Varlink socket path.
    public var socketPath: String
    /// The SQLite database path.
    public var databasePath: String

    /// Creates paths.
    public init(socketPath: String, databasePath: String) {
        self.socketPath = socketPath
        self.databasePath = databasePath
    }

    /// The state database (watchlists, recent queries): `state.sqlite3` in the cache database's
    /// directory (`user-state.sqlite3` if the cache database itself is named `state.sqlite3`).
    /// `Database=` and `--database` name the cache database; the state database follows it.
    public var statePath: String {
        let directory = Self.parent(of: databasePath)
        let path = directory == "/" ? "/\(Self.stateName)" : "\(directory)/\(Self.stateName)"
        return path == databasePath ? Self.parent(of: databasePath) + "/user-" + Self.stateName : path
    }

    /// The catalogue (TMDB's daily ID export): `catalogue.sqlite3` in the cache database's
    /// directory (`cache-catalogue.sqlite3` if the cache database itself is so named).
    public var cataloguePath: String {
        let directory = Self.parent(of: databasePath)
        let path = directory == "/" ? "/\(Self.catalogueName)" : "\(directory)/\(Self.catalogueName)"
        return path == databasePath ? Self.parent(of: databasePath) + "/cache-" + Self.catalogueName : path
    }

    /// The catalogue's file name inside the data directory.
    public static let catalogueName = "catalogue.sqlite3"

    /// The state database's file name inside the data directory.
    public static let stateName = "state.sqlite3"

    /// The socket's file name inside its directory.
    public static let socketName = "io.moviesd.Movies"
    /// The database's file name inside its directory.
    public static let databaseName = "cache.sqlite3"

    /// The default paths for user `uid` with `environment`; `homeDirectory` is used when `HOME` is unset.
    public static func defaults(environment: [String: String], uid: UInt32, homeDirectory: String? = nil) -> DaemonPaths {
        if uid == 0 {
            return DaemonPaths(socketPath: "/run/moviesd/\(socketName)", databasePath: "/var/lib/moviesd/\(databaseName)")
        }
        let runtime = absolute(environment["XDG_RUNTIME_DIR"]) ?? "/run/user/\(uid)"
        let homePath = home(environment: environment, uid: uid, fallback: homeDirectory)
        let state = absolute(environment["XDG_STATE_HOME"]) ?? "\(homePath)/.local/state"
        return DaemonPaths(socketPath: "\(runtime)/moviesd/\(socketName)", databasePath: "\(state)/moviesd/\(databaseName)")
    }

    /// The configuration file read when `--config` is not given.
    public static func defaultConfigurationPath(environment: [String: String], uid: UInt32, homeDirectory: String? = nil) -> String {
        if uid == 0 { return "/etc/moviesd/moviesd.conf" }
        let config = absolute(environment["XDG_CONFIG_HOME"]) ?? "\(home(environment: environment, uid: uid, fallback: homeDirectory))/.config"
        return "\(config)/moviesd/moviesd.conf"
    }

    /// The paths for `configuration`: its `Socket=`/`Database=` when set, the defaults otherwise.
    public static func resolve(_ configuration: DaemonConfiguration, environment: [String: String], uid: UInt32, homeDirectory: String? = nil) -> DaemonPaths {
        let fallback = defaults(environment: environment, uid: uid, homeDirectory: homeDirectory)
        return DaemonPaths(
            socketPath: configuration.daemon.socketPath ?? fallback.socketPath,
            databasePath: configuration.daemon.databasePath ?? fallback.databasePath
        )
    }

    /// Creates the socket's (mode 0755) and databases' (0700) parent directories and checks that both
    /// directories, and the database file if it exists, are writable.
    ///
    /// A socket-activated daemon (`socketActivated`) never binds its socket path: the service manager
    /// created the socket, and its directory may well be read-only to the daemon's user (a static
    /// system user, `/run/moviesd` owned by root), so only the database's directory is prepared then.
    /// - Throws: ``StartupError`` naming the path that cannot be created or written.
    public func prepare(socketActivated: Bool = false) throws(StartupError) {
        if !socketActivated {
            do {
                try Self.prepareDirectory(Self.parent(of: socketPath), for: socketPath)
            } catch var error {
                // Usually XDG_RUNTIME_DIR is unset (no login session) and /run/user/UID does not exist.
                error.message += "; set XDG_RUNTIME_DIR to a directory of yours (a login session sets it), or choose the socket with --socket PATH or Socket= in moviesd.conf"
                throw error
            }
        }
        try Self.prepareDirectory(Self.parent(of: databasePath), for: databasePath, mode: 0o700)
        for path in [databasePath, databasePath + "-wal", databasePath + "-shm"] where access(path, F_OK) == 0 {
            guard access(path, R_OK | W_OK) == 0 else {
                throw Self.failure(path, "cannot write database file", SystemCallError("access"))
            }
        }
    }

    /// Creates `directory` and its missing parents with `mode` (whatever the umask), then checks it
    /// is a writable directory. The socket's directory is 0755 (every user connects); the
    /// databases' is 0700 (the data is the daemon's user's alone).
    static func prepareDirectory(_ directory: String, for file: String, mode: mode_t = 0o755) throws(StartupError) {
        var missing: [String] = []
        var current = directory
        while !current.isEmpty, current != "/", access(current, F_OK) != 0 {
            missing.append(current)
            current = parent(of: current)
        }
        for path in missing.reversed() {
            if mkdir(path, mode) == 0 {
                chmod(path, mode)
            } else if errno != EEXIST {
                throw failure(path, "cannot create directory for \(file)", SystemCallError("mkdir"))
            }
        }
        var status = stat()
        guard stat(directory, &status) == 0 else {
            throw failure(directory, "cannot use directory for \(file)", SystemCallError("stat"))
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw failure(directory, "cannot use directory for \(file)", SystemCallError("stat", code: ENOTDIR))
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw failure(directory, "cannot write to directory for \(file)", SystemCallError("access"))
        }
    }

    /// The directory part of `path` (`/` for a top-level file, `.` for a bare name).
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    private static func failure(_ path: String, _ what: String, _ error: SystemCallError) -> StartupError {
        StartupError("moviesd: \(path): \(what): \(error.reason)", exitCode: StartupError.cannotCreateExitCode)
    }

    private static func absolute(_ value: String?) -> String? {
        guard let value, value.hasPrefix("/") else { return nil }
        return value.count > 1 && value.hasSuffix("/") ? String(value.dropLast()) : value
    }

    private static func home(environment: [String: String], uid: UInt32, fallback: String?) -> String {
        if let home = absolute(environment["HOME"]) { return home }
        if let fallback { return fallback }
        return passwordDatabaseHome(uid: uid) ?? "/"
    }

    private static func passwordDatabaseHome(uid: UInt32) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16 * 1024)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let directory = entry.pw_dir else {
            return nil
        }
        return String(cString: directory)
    }
}
