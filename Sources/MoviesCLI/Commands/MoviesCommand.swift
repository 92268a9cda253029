import CommandLineSupport

/// One `movies` subcommand, in the spirit of swift-argument-parser's `ParsableCommand`: a spec for
/// parsing and help, validation in `init`, and `run`.
protocol MoviesCommand {
    /// The command's name, arguments, options and help.
    static var spec: CommandSpec { get }
    /// Validates `arguments`, throwing a `UsageError` that says what to do.
    init(_ arguments: ParsedArguments) throws(UsageError)
    /// Runs the command.
    func run(_ context: CommandContext) -> ExitCode
    /// What the positional argument after `positionals` completes with (`movies __complete`).
    static func completion(after positionals: [String]) -> CompletionSource
}

extension MoviesCommand {
    /// By default a positional completes with nothing.
    static func completion(after positionals: [String]) -> CompletionSource { .nothing }
}
