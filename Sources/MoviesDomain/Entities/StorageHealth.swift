import FoundationEssentials

/// The local database's health as `Status` reports it: `ok`, or the fault of the last failed
/// operation since when it holds. Set back to `ok` by the next successful write.
public struct StorageHealth: Sendable, Hashable, Codable {
    /// The database's state.
    public enum State: String, Sendable, Hashable, Codable {
        /// The last operation succeeded.
        case ok
        /// The disk is full: answers are served but not cached.
        case full
        /// Another process holds a lock: writes fail after the bounded wait.
        case locked
        /// The cache database is damaged: restart moviesd to rebuild it.
        case corrupt
        /// I/O errors or permissions.
        case unavailable

        /// The state for `fault` (`ok` for none).
        public init(_ fault: StorageFault?) {
            switch fault {
            case nil: self = .ok
            case .full: self = .full
            case .locked: self = .locked
            case .corrupt: self = .corrupt
            case .unavailable: self = .unavailable
            }
        }
    }

    public var state: State
    /// Since when the current state holds (`nil` for `ok` since start).
    public var since: Date?
    /// What the last failure said, with the advice (never a path, key or credential).
    public var lastError: String?

    /// Creates a health record.
    public init(state: State, since: Date? = nil, lastError: String? = nil) {
        self.state = state
        self.since = since
        self.lastError = lastError
    }

    /// A sound database.
    public static let ok = StorageHealth(state: .ok)
}

/// Port: the local database's health, for `Status`.
public protocol StorageHealthRepository: Sendable {
    /// The current health.
    func storageHealth() -> StorageHealth
}
