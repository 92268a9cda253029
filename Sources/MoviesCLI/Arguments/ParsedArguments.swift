/// The outcome of parsing a command's arguments: option values, flags and positionals.
struct ParsedArguments: Sendable, Hashable {
    /// The values of options that take one, by primary name, in the order given.
    var values: [String: [String]] = [:]
    /// The flags given, by primary name.
    var flags: Set<String> = []
    /// The positional arguments, in order.
    var positionals: [String] = []

    /// The last value given for `option`, if any.
    func value(_ option: String) -> String? { values[option]?.last }

    /// Whether `flag` was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The value of `option` as an integer in `range`, or `nil` when absent.
    func integer(_ option: String, in range: ClosedRange<Int>, command: String) throws(UsageError) -> Int? {
        guard let text = value(option) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("\(option) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'", command: command)
        }
        return number
    }
}
