/// The options of `moviesd [--config FILE] [--socket PATH] [--database PATH] [--remote-url URL]
/// [--log-level LEVEL]`, which override the configuration file.
public struct DaemonArguments: Sendable, Hashable {
    /// `--config FILE`: the configuration file; nil means the default one (if it exists).
    public var configurationPath: String?
    /// `--socket PATH`: the Varlink socket path.
    public var socketPath: String?
    /// `--database PATH`: the SQLite cache path.
    public var databasePath: String?
    /// `--remote-url URL`: TMDB's API base URL (normalized to end in `/`).
    public var remoteURL: String?
    /// `--log-level LEVEL`: debug, info, notice, warning or error.
    public var logLevel: LogLevel?

    /// No options: everything from the configuration file and defaults.
    public init(configurationPath: String? = nil, socketPath: String? = nil, databasePath: String? = nil, remoteURL: String? = nil, logLevel: LogLevel? = nil) {
        self.configurationPath = configurationPath
        self.socketPath = socketPath
        self.databasePath = databasePath
        self.remoteURL = remoteURL
        self.logLevel = logLevel
    }

    /// The help text printed by `--help`.
    public static let usage = """
        Usage: moviesd [OPTIONS]

        Offline-first cache daemon for the TMDB API, serving io.moviesd.Movies over Varlink.

        Options:
          --config FILE       read settings from FILE (default /etc/moviesd/moviesd.conf as root,
                              $XDG_CONFIG_HOME/moviesd/moviesd.conf otherwise; missing is fine)
          --socket PATH       listen on this Unix socket (overrides Socket=)
          --database PATH     keep the cache in this SQLite file, state.sqlite3 beside it (overrides Database=)
          --remote-url URL    TMDB API base URL (overrides [Remote] URL=)
          --log-level LEVEL   debug, info, notice, warning or error (overrides LogLevel=)
          -h, --help          show this help and exit
          --version           show the version and exit

        The TMDB token is read from $CREDENTIALS_DIRECTORY/tmdb-token, else $MOVIESD_TMDB_TOKEN,
        else $MOVIESD_TMDB_API_KEY. Without one, cached data is still served.
        """

    /// Parses the arguments after the program name.
    ///
    /// Accepts `--option VALUE` and `--option=VALUE`. Relative paths are made absolute against
    /// `workingDirectory`.
    /// - Throws: ``StartupError`` with exit code 64 and a message saying what to fix.
    public static func parse(_ arguments: [String], workingDirectory: String) throws(StartupError) -> DaemonCommand {
        var result = DaemonArguments()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(StartupError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst(), !next.hasPrefix("--") || next == "--" else {
                    throw usageError("option '\(name)' needs a value")
                }
                return next
            }
            switch name {
            case "-h", "--help":
                return .showHelp
            case "--version":
                return .showVersion
            case "--config":
                result.configurationPath = try path(value(), option: name, workingDirectory: workingDirectory)
            case "--socket":
                result.socketPath = try path(value(), option: name, workingDirectory: workingDirectory)
            case "--database":
                result.databasePath = try path(value(), option: name, workingDirectory: workingDirectory)
            case "--remote-url":
                let text = try value()
                do throws(ConfigurationValueError) {
                    result.remoteURL = try ConfigurationValue.baseURL(text)
                } catch {
                    throw usageError("invalid value '\(text)' for --remote-url: \(error.expectation)")
                }
            case "--log-level":
                let text = try value()
                guard let level = LogLevel(name: text) else {
                    throw usageError("invalid value '\(text)' for --log-level: expected one of debug, info, notice, warning, error")
                }
                result.logLevel = level
            default:
                if argument.hasPrefix("-") {
                    throw usageError("unknown option '\(name)'")
                }
                throw usageError("unexpected argument '\(argument)' (moviesd takes only options)")
            }
        }
        return .run(result)
    }

    /// `configuration` with every option given on the command line applied over it.
    public func applied(to configuration: DaemonConfiguration) -> DaemonConfiguration {
        var result = configuration
        if let socketPath { result.daemon.socketPath = socketPath }
        if let databasePath { result.daemon.databasePath = databasePath }
        if let remoteURL { result.remote.baseURL = remoteURL }
        if let logLevel { result.daemon.logLevel = logLevel }
        return result
    }

    private static func path(_ text: String, option: String, workingDirectory: String) throws(StartupError) -> String {
        guard !text.isEmpty, !text.contains("\0") else {
            throw usageError("option '\(option)' needs a non-empty path")
        }
        if text.hasPrefix("/") { return text }
        let base = workingDirectory.hasSuffix("/") ? workingDirectory : workingDirectory + "/"
        return base + text
    }

    private static func usageError(_ reason: String) -> StartupError {
        StartupError("moviesd: \(reason) (see 'moviesd --help')", exitCode: StartupError.usageExitCode)
    }
}
