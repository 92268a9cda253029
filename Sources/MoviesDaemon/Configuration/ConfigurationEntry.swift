/// One `Key=Value` assignment read from a configuration file, with where it was found.
public struct ConfigurationEntry: Sendable, Hashable {
    /// The section it belongs to, without brackets.
    public var section: String
    /// The key, as written (keys are case-sensitive, as in systemd).
    public var key: String
    /// The value, with surrounding whitespace trimmed and continuation lines joined.
    public var value: String
    /// The 1-based line on which the assignment starts.
    public var line: Int

    /// Creates an entry.
    public init(section: String, key: String, value: String, line: Int) {
        self.section = section
        self.key = key
        self.value = value
        self.line = line
    }
}
