import Varlink

/// A command line that cannot be run, with the sentence that says how to fix it (exit code 64).
struct UsageError: Error, Sendable, Hashable {
    /// What is wrong and what to do instead.
    let message: String
    /// The command it concerns, to point at its `--help`; `nil` for the top level.
    let command: String?

    /// Creates a usage error about `command`.
    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    /// The text to print on standard error.
    var text: String {
        let help = command.map { "movies \($0) --help" } ?? "movies --help"
        return "movies: \(message)\nSee '\(help)'.\n"
    }

    /// The JSON error line's object for `--json`: `{"error": "io.moviesd.cli.UsageError", "exitCode": 64, …}`.
    var json: JSONValue {
        .object([
            "error": .string("io.moviesd.cli.UsageError"),
            "exitCode": .int(Int64(ExitCode.usage.rawValue)),
            "message": .string(message),
            "parameters": .object(command.map { ["command": .string($0)] } ?? [:]),
        ])
    }
}
