/// Why `MoviesDatabases.open` could not open the databases: one line naming the file, what is
/// wrong and what to do. A damaged state database is never moved or deleted.
public struct DatabaseOpenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable {
        /// The state database (or an old single-file database holding user data) is damaged.
        case stateDamaged = "state_damaged"
        /// The state database cannot be opened (permissions, newer schema, I/O).
        case stateUnusable = "state_unusable"
        /// The cache database cannot be opened or rebuilt (permissions, newer schema, I/O).
        case cacheUnusable = "cache_unusable"
    }

    /// What went wrong.
    public var kind: Kind
    /// The one-line message, starting with `moviesd: `.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
