/// What the command line asks `moviesd` to do.
public enum DaemonCommand: Sendable, Hashable {
    /// Run the daemon with these options.
    case run(DaemonArguments)
    /// Print ``DaemonArguments/usage`` and exit 0.
    case showHelp
    /// Print the version and exit 0.
    case showVersion
}
