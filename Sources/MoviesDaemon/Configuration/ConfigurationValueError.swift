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
