/// One key of one section: `[Daemon] AuthorizedGroup=` is `ConfigurationKey(section: "Daemon", key: "AuthorizedGroup")`.
public struct ConfigurationKey: Sendable, Hashable {
    /// The section name, without brackets.
    public var section: String
    /// The key, as the schema spells it.
    public var key: String

    /// Creates a key.
    public init(section: String, key: String) {
        self.section = section
        self.key = key
    }
}

/// Where a setting was last assigned: the file (the main one or a drop-in) and the line.
///
/// Kept for values that can only be checked when they are used, after every file was read: an
/// `AuthorizedGroup=` naming a group the system does not have is found at start, and the error
/// names the line that set it, as errors found while reading do.
public struct ConfigurationOrigin: Sendable, Hashable {
    /// The file's path.
    public var path: String
    /// The 1-based line of the assignment.
    public var line: Int

    /// Creates an origin.
    public init(path: String, line: Int) {
        self.path = path
        self.line = line
    }
}
