/// Splits a command line into options, flags and positionals: the one parser of `movies`,
/// `moviesd`, `tmdb-stub` and `moviesd-bench`.
///
/// Accepts `--name value`, `--name=value`, `-o value`, `-ovalue` (a short option that takes a
/// value, with the value attached, as getopt(3) does: `-n3`); `--` ends the options; a lone `-` is a
/// positional. A value is the next argument unless that looks like an option (`--x`): then the
/// option's implicit value is taken, or it is missing.
public enum OptionParser {
    /// Parses `arguments` against `options`.
    public static func parse(_ arguments: [String], options: [OptionSpec]) throws(OptionParseError) -> ParsedArguments {
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
            } else if !argument.hasPrefix("--"), argument.count > 2 {
                let short = String(argument.prefix(2))
                if options.contains(where: { $0.names.contains(short) && $0.valueName != nil }) {
                    name = short
                    inlineValue = String(argument.dropFirst(2))
                }
            }
            guard let option = options.first(where: { $0.names.contains(name) }) else {
                throw .unknown(name: name, known: options.flatMap(\.names).filter { $0.hasPrefix("--") })
            }
            guard let valueName = option.valueName else {
                if inlineValue != nil { throw .unexpectedValue(name: name) }
                parsed.flags.insert(option.primaryName)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count, !looksLikeOption(arguments[index]) {
                value = arguments[index]
                index += 1
            } else if let implicit = option.implicitValue {
                value = implicit
            } else {
                throw .missingValue(name: name, valueName: valueName)
            }
            parsed.values[option.primaryName, default: []].append(value)
        }
        return parsed
    }

    /// `--something`: an option, never taken as the value of the one before it.
    private static func looksLikeOption(_ argument: String) -> Bool {
        argument.hasPrefix("--") && argument.count > 2
    }
}
