/// The outcome of parsing a command line: option values, flags and positionals.
public struct ParsedArguments: Sendable, Hashable {
    /// The values of options that take one, by primary name, in the order given.
    public var values: [String: [String]] = [:]
    /// The flags given, by primary name.
    public var flags: Set<String> = []
    /// The positional arguments, in order.
    public var positionals: [String] = []

    /// Creates an empty result.
    public init() {}

    /// The last value given for `option`, if any.
    public func value(_ option: String) -> String? { values[option]?.last }

    /// Whether `flag` was given.
    public func has(_ flag: String) -> Bool { flags.contains(flag) }
}
