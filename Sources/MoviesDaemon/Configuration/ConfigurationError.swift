/// A configuration file that cannot be used: its path, the line at fault and what is wrong.
///
/// The description is one line in the compiler's style, e.g.
/// `moviesd: /etc/moviesd/moviesd.conf:12: unknown key 'Foo' in section [Daemon]`.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The configuration file's path.
    public var path: String
    /// The 1-based line number at fault, or nil when the whole file is (it cannot be read).
    public var line: Int?
    /// What is wrong, without the `moviesd: path:line:` prefix.
    public var reason: String

    /// Creates an error.
    public init(path: String, line: Int?, reason: String) {
        self.path = path
        self.line = line
        self.reason = reason
    }

    /// `moviesd: PATH:LINE: REASON` (or `moviesd: PATH: REASON`), on one line.
    public var description: String {
        let location = line.map { "\(path):\($0)" } ?? path
        return "moviesd: \(location): \(reason)"
    }

    /// The sysexits code for a bad configuration (`EX_CONFIG`).
    public var exitCode: Int32 { 78 }
}

/// Why one configuration value could not be parsed, e.g. "expected a positive integer".
///
/// ``ConfigurationFile`` and ``DaemonArguments`` turn it into a located error naming the key or option.
public struct ConfigurationValueError: Error, Sendable, Hashable {
    /// What was expected, as a phrase that follows "invalid value 'x' for Key: ".
    public var expectation: String

    /// Creates an error stating what was expected.
    public init(_ expectation: String) {
        self.expectation = expectation
    }
}
