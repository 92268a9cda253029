import FoundationEssentials

/// What a command runs with: the daemon client, where to write, the terminal's capabilities,
/// whether to print JSON, and the clock.
struct CommandContext {
    /// The daemon, through the `MoviesClient` port.
    let client: any MoviesClient
    /// Standard output.
    let output: any TextSink
    /// Standard error.
    let errors: any TextSink
    /// Standard output's terminal capabilities.
    let terminal: TerminalCapabilities
    /// Whether `--json` was given.
    let json: Bool
    /// The current time.
    let now: () -> Date
    /// Writes bytes to a path (`-` = standard output); returns the failure reason, if any.
    let writeFile: (_ bytes: [UInt8], _ path: String) -> String?

    /// Prints `error` on standard error and returns its exit code.
    func fail(_ error: ClientError) -> ExitCode {
        errors.write("movies: \(error.message)\n")
        return error.exitCode
    }

    /// Prints `lines` on standard output.
    func print(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        output.write(lines.joined(separator: "\n") + "\n")
    }
}
