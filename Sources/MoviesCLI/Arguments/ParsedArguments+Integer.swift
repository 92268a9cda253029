import CommandLineSupport

extension ParsedArguments {
    /// The value of `option` as an integer in `range`, or `nil` when absent.
    func integer(_ option: String, in range: ClosedRange<Int>, command: String?) throws(UsageError) -> Int? {
        guard let text = value(option) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("\(option) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'", command: command)
        }
        return number
    }
}
