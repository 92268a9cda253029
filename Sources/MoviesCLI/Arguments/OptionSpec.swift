/// One option a command accepts: its names, the name of its value (nil for a flag) and its help.
struct OptionSpec: Sendable, Hashable {
    /// The names, primary first: `["--output", "-o"]`.
    let names: [String]
    /// The value's placeholder in help (`FILE`), or `nil` for a flag that takes no value.
    let valueName: String?
    /// One line of help.
    let help: String

    /// The primary name, used as the key of parsed values.
    var primaryName: String { names.first ?? "" }

    /// Creates an option taking a value.
    static func option(_ names: String..., value: String, help: String) -> OptionSpec {
        OptionSpec(names: names, valueName: value, help: help)
    }

    /// Creates a flag.
    static func flag(_ names: String..., help: String) -> OptionSpec {
        OptionSpec(names: names, valueName: nil, help: help)
    }
}
