/// One `Key=` of one `[Section]`: how to parse its value into a ``DaemonConfiguration``.
public struct ConfigurationSetting: Sendable {
    /// The section name without brackets, e.g. `Daemon`.
    public let section: String
    /// The key, e.g. `MaxConnections`.
    public let key: String
    private let assign: @Sendable (inout DaemonConfiguration, String) throws(ConfigurationValueError) -> Void

    /// Creates a setting whose value `assign` parses and stores.
    public init(
        section: String,
        key: String,
        assign: @escaping @Sendable (inout DaemonConfiguration, String) throws(ConfigurationValueError) -> Void
    ) {
        self.section = section
        self.key = key
        self.assign = assign
    }

    /// Parses `value` and stores it in `configuration`.
    public func apply(_ value: String, to configuration: inout DaemonConfiguration) throws(ConfigurationValueError) {
        try assign(&configuration, value)
    }
}
