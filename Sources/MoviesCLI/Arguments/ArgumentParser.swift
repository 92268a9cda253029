/// Splits a command's arguments into options, flags and positionals according to its `CommandSpec`.
///
/// Accepts `--name value`, `--name=value`, `-o value`; `--` ends the options; a lone `-` is a
/// positional. An unknown option, or an option missing its value, is a `UsageError` naming it.
enum ArgumentParser {
    /// Options every command accepts.
    static let globalOptions: [OptionSpec] = [
        .option("--socket", value: "PATH", help: "The daemon's socket (default: $MOVIESD_SOCKET, else the user's or the system's)."),
        .flag("--json", help: "Print each daemon reply's parameters, and any error as {\"error\": NAME, \"exitCode\": N, \"message\": …, \"parameters\": {…}}, as JSON lines."),
        .flag("--quiet", "-q", help: "No warnings on standard error (e.g. that cached data is shown because TMDB is unreachable)."),
        .flag("--fail-stale", help: "Exit 75 when cached data is shown because TMDB is unreachable (default: exit 0 with a warning)."),
        .flag("--help", "-h", help: "Show help and exit."),
        .flag("--version", help: "Show the version and exit."),
    ]

    /// Parses `arguments` (after the command name) for `spec`.
    static func parse(_ arguments: [String], spec: CommandSpec?) throws(UsageError) -> ParsedArguments {
        let options = (spec?.options ?? []) + globalOptions
        let forCommand = spec.map { " for 'movies \($0.name)'" } ?? ""
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = options.first(where: { $0.names.contains(name) }) else {
                let hint = Suggestion.closest(to: name, among: options.flatMap(\.names).filter { $0.hasPrefix("--") })
                    .map { "; did you mean '\($0)'?" } ?? ""
                throw UsageError("unknown option '\(name)'\(forCommand)\(hint)", command: spec?.name)
            }
            guard let valueName = option.valueName else {
                if inlineValue != nil {
                    throw UsageError("\(name) takes no value; write just '\(name)'", command: spec?.name)
                }
                parsed.flags.insert(option.primaryName)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError("\(name) needs a value: \(name) \(valueName)", command: spec?.name)
            }
            parsed.values[option.primaryName, default: []].append(value)
        }
        return parsed
    }
}
