import CommandLineSupport

/// What a command accepts and how its help reads, in the spirit of swift-argument-parser's
/// `CommandConfiguration`.
struct CommandSpec: Sendable, Hashable {
    /// The command's name (`search`).
    let name: String
    /// One line saying what it does.
    let abstract: String
    /// The usage line after `movies` (`search QUERY… [--page N]`).
    let usage: String
    /// Its positional arguments.
    let arguments: [ArgumentSpec]
    /// Its own options (the global ones are added by the parser).
    let options: [OptionSpec]
    /// Extra paragraphs for `--help`.
    let discussion: String

    /// Creates a command description.
    init(name: String, abstract: String, usage: String, arguments: [ArgumentSpec] = [], options: [OptionSpec] = [], discussion: String = "") {
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.arguments = arguments
        self.options = options
        self.discussion = discussion
    }
}
