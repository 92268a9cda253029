/// One option a program accepts: its names, the name of its value (nil for a flag) and its help.
public struct OptionSpec: Sendable, Hashable {
    /// The names, primary first: `["--output", "-o"]`.
    public let names: [String]
    /// The value's placeholder in help (`FILE`), or `nil` for a flag that takes no value.
    public let valueName: String?
    /// The value taken when the option is given without one (`tmdb-stub --hang` means `--hang 1`);
    /// `nil` when a value is required.
    public let implicitValue: String?
    /// One line of help.
    public let help: String

    /// The primary name, used as the key of parsed values.
    public var primaryName: String { names.first ?? "" }

    /// Creates an option taking a value (`implicit`: the value when none follows).
    public static func option(_ names: String..., value: String, implicit: String? = nil, help: String) -> OptionSpec {
        OptionSpec(names: names, valueName: value, implicitValue: implicit, help: help)
    }

    /// Creates a flag.
    public static func flag(_ names: String..., help: String) -> OptionSpec {
        OptionSpec(names: names, valueName: nil, implicitValue: nil, help: help)
    }
}
