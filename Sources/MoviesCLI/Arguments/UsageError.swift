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
}
