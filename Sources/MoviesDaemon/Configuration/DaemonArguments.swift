import CommandLineSupport

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

    /// The options, for the shared parser.
    private static let options: [OptionSpec] = [
        .option("--config", value: "FILE", help: "the configuration file"),
        .option("--socket", value: "PATH", help: "the Unix socket"),
        .option("--database", value: "PATH", help: "the SQLite cache"),
        .option("--remote-url", value: "URL", help: "TMDB API base URL"),
        .option("--log-level", value: "LEVEL", help: "the log level"),
        .flag("--help", "-h", help: "show help"),
        .flag("--version", help: "show the version"),
    ]

    /// Parses the arguments after the program name.
    ///
    /// Accepts `--option VALUE` and `--option=VALUE`. Relative paths are made absolute against
    /// `workingDirectory`.
    /// - Throws: ``StartupError`` with exit code 64 and a message saying what to fix.
    public static func parse(_ arguments: [String], workingDirectory: String) throws(StartupError) -> DaemonCommand {
        let parsed: ParsedArguments
        do throws(OptionParseError) {
            parsed = try OptionParser.parse(arguments, options: options)
        } catch {
            switch error {
            case .unknown(let name, let known):
                let hint = Suggestion.closest(to: name, among: known).map { "; did you mean '\($0)'?" } ?? ""
                throw usageError("unknown option '\(name)'\(hint)")
            case .missingValue(let name, _): throw usageError("option '\(name)' needs a value")
            case .unexpectedValue(let name): throw usageError("option '\(name)' takes no value")
            }
        }
        if parsed.has("--help") { return .showHelp }
        if parsed.has("--version") { return .showVersion }
        if let argument = parsed.positionals.first {
            throw usageError("unexpected argument '\(argument)' (moviesd takes only options)")
        }
        var result = DaemonArguments()
        result.configurationPath = try parsed.value("--config").map { text throws(StartupError) in try path(text, option: "--config", workingDirectory: workingDirectory) }
        result.socketPath = try parsed.value("--socket").map { text throws(StartupError) in try path(text, option: "--socket", workingDirectory: workingDirectory) }
        result.databasePath = try parsed.value("--database").map { text throws(StartupError) in try path(text, option: "--database", workingDirectory: workingDirectory) }
        if let text = parsed.value("--remote-url") {
            do throws(ConfigurationValueError) {
                result.remoteURL = try ConfigurationValue.baseURL(text)
            } catch {
                throw usageError("invalid value '\(text)' for --remote-url: \(error.expectation)")
            }
        }
        if let text = parsed.value("--log-level") {
            guard let level = LogLevel(name: text) else {
                throw usageError("invalid value '\(text)' for --log-level: expected one of debug, info, notice, warning, error")
            }
            result.logLevel = level
        }
        return .run(result)
    }

    /// `configuration` with every option given on the command line applied over it.
    public func applied(to configuration: DaemonConfiguration) -> DaemonConfiguration {
        var result = configuration
        func overridden(_ section: String, _ key: String) { result.origins[ConfigurationKey(section: section, key: key)] = nil }
        if let socketPath { result.daemon.socketPath = socketPath; overridden("Daemon", "Socket") }
        if let databasePath { result.daemon.databasePath = databasePath; overridden("Daemon", "Database") }
        if let remoteURL { result.remote.baseURL = remoteURL; overridden("Remote", "URL") }
        if let logLevel { result.daemon.logLevel = logLevel; overridden("Daemon", "LogLevel") }
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

/// What the command line asks `moviesd` to do.
public enum DaemonCommand: Sendable, Hashable {
    /// Run the daemon with these options.
    case run(DaemonArguments)
    /// Print ``DaemonArguments/usage`` and exit 0.
    case showHelp
    /// Print the version and exit 0.
    case showVersion
}
