import CommandLineSupport

/// How a command that lists records prints them (`--format`), as gh does: a table for people on a
/// terminal; one record a line, fields separated by tabs, no header and no padding, when standard
/// output is not a terminal; or JSON (`--json`).
enum OutputFormat: String, CaseIterable, Sendable, Hashable {
    /// Aligned columns under a header, with the summary and freshness lines.
    case table
    /// One record a line, tab-separated fields, nothing else on standard output.
    case tsv
    /// The daemon's answer as one line of JSON (as `--json`).
    case json

    /// The option's name.
    static let optionName = "--format"

    /// The option's spec.
    static let spec = OptionSpec.option(
        optionName, value: "FORMAT",
        help: "table (aligned columns under a header; the default on a terminal), tsv (one record a line, fields separated by tabs, no header or padding; the default when output is not a terminal) or json (as --json).")

    /// The format the command line asks for, `nil` when it does not say (then: table on a
    /// terminal, else tsv, `resolved(standardOutputIsTerminal:)`).
    static func requested(in arguments: ParsedArguments, command: String) throws(UsageError) -> OutputFormat? {
        guard let text = arguments.value(optionName) else { return nil }
        guard let format = OutputFormat(rawValue: text) else {
            let hint = Suggestion.closest(to: text, among: allCases.map(\.rawValue)).map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError("--format takes table, tsv or json, not '\(text)'\(hint)", command: command)
        }
        if format != .json, arguments.has("--json") || arguments.has("--stream") {
            throw UsageError("choose one of --json and --format \(format.rawValue)", command: command)
        }
        return format
    }

    /// `requested`, else the default for where standard output goes.
    static func resolved(_ requested: OutputFormat?, standardOutputIsTerminal: Bool) -> OutputFormat {
        requested ?? (standardOutputIsTerminal ? .table : .tsv)
    }

    /// Whether the raw command line asks for JSON (`--json`, `--stream`, `--format json`), before
    /// it is parsed: a command line that cannot be parsed answers in JSON all the same.
    /// `--format json` counts only when the command has `--format` (`acceptsFormat`): given to
    /// another (`show`), it is the unknown option the usage error is about, and asks for nothing.
    static func asksForJSON(_ arguments: [String], acceptsFormat: Bool) -> Bool {
        let options = Array(arguments.prefix { $0 != "--" })
        if options.contains("--json") || options.contains("--stream") { return true }
        guard acceptsFormat else { return false }
        if options.contains("\(optionName)=json") { return true }
        return zip(options, options.dropFirst()).contains { $0 == optionName && $1 == "json" }
    }

    /// `text` as one TSV field: tabs, line breaks (which would split the record) and other
    /// control characters become spaces.
    static func field(_ text: String) -> String {
        TextFitting.printable(text)
    }
}
