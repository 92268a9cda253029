import CommandLineSupport

/// Parses a `movies` command's arguments with its `CommandSpec` and the global options (the shared
/// `OptionParser`); an unknown option, or an option missing its value, is a `UsageError` naming it.
enum ArgumentParser {
    /// Options every command accepts.
    static let globalOptions: [OptionSpec] = [
        .option("--socket", value: "PATH", help: "The daemon's socket (default: $MOVIESD_SOCKET, else the user's or the system's)."),
        .flag("--json", help: "Print the answer as one line of JSON (the daemon reply's parameters: the final one when cached data came first); a failure as one line {\"error\": NAME, \"exitCode\": N, \"message\": …, \"parameters\": {…}}, exitCode being the program's own."),
        .flag("--stream", help: "With --json (implied): print every update as it comes, cached then fresh, each marked \"update\": \"cached\", \"progress\" or \"final\" (the last line)."),
        .option("--width", value: "N", help: "Fit output on a terminal to N columns (default: $COLUMNS, else the terminal's width). Piped output is never cut."),
        .flag("--quiet", "-q", help: "No warnings on standard error (e.g. that cached data is shown because TMDB is unreachable)."),
        .option("--color", value: "WHEN", help: "Colour: auto (on a terminal, unless NO_COLOR is set; the default), always (even piped, whatever NO_COLOR says) or never."),
        .flag("--no-pager", help: "Never send long output on a terminal through the pager ($MOVIES_PAGER, else $PAGER, else less -FRX)."),
        .flag("--fail-stale", help: "Exit 75 when cached data is shown because TMDB is unreachable (default: exit 0 with a warning)."),
        .flag("--help", "-h", help: "Show help and exit."),
        .flag("--version", "-V", help: "Show the version and exit."),
    ]

    /// Parses `arguments` (after the command name) for `spec`.
    static func parse(_ arguments: [String], spec: CommandSpec?) throws(UsageError) -> ParsedArguments {
        let forCommand = spec.map { " for 'movies \($0.name)'" } ?? ""
        do throws(OptionParseError) {
            return try OptionParser.parse(arguments, options: (spec?.options ?? []) + globalOptions)
        } catch {
            switch error {
            case let .unknown(name, known):
                let hint = Suggestion.closest(to: name, among: known).map { "; did you mean '\($0)'?" }
                    ?? owners(of: name, besides: spec).map { "; it is an option of \($0)" } ?? ""
                throw UsageError("unknown option '\(name)'\(forCommand)\(hint)", command: spec?.name)
            case let .unexpectedValue(name):
                throw UsageError("\(name) takes no value; write just '\(name)'", command: spec?.name)
            case let .missingValue(name, valueName):
                throw UsageError("\(name) needs a value: \(name) \(valueName)", command: spec?.name)
            }
        }
    }

    /// An option written before the command that is not a global option, as a usage error: the
    /// global option it was probably meant to be, or the commands it belongs to (which take it
    /// after their name).
    static func unknownBeforeCommand(_ argument: String) -> UsageError {
        let name = argument.hasPrefix("--") ? String(argument.prefix { $0 != "=" }) : argument
        let globals = globalOptions.flatMap(\.names).filter { $0.hasPrefix("--") }
        if let meant = Suggestion.closest(to: name, among: globals) {
            return UsageError("unknown option '\(name)'; did you mean '\(meant)'?")
        }
        let owners = MoviesCommandLine.commandSpecs.filter { $0.options.contains { $0.names.contains(name) } }.map(\.name)
        if let first = owners.first {
            let list = owners.map { "'movies \($0)'" }.joined(separator: " and ")
            return UsageError("'\(name)' is an option of \(list): write it after the command ('movies \(first) … \(name)')")
        }
        return UsageError("unknown option '\(name)'; the options before a command are \(globals.joined(separator: ", "))")
    }

    /// The other commands that have the option `name`, quoted (`'movies search'`: `--region` is
    /// search's, not show's); `nil` when none has it.
    private static func owners(of name: String, besides spec: CommandSpec?) -> String? {
        guard let spec else { return nil }
        let owners = MoviesCommandLine.commandSpecs.filter { other in
            other.name != spec.name && other.options.contains { $0.names.contains(name) }
        }
        return owners.isEmpty ? nil : owners.map { "'movies \($0.name)'" }.joined(separator: " and ")
    }
}
