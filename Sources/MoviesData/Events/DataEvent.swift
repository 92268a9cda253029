/// Something the data layer noticed that an operator should be able to read in the journal: the
/// remote going offline or coming back, a rejected token, a rate limit, storage degrading, a refresh
/// starting or finishing, an eviction.
///
/// The data layer reports events through an ``EventLog``; the daemon writes them to its log at
/// `severity`. Whoever reports an event owns the "once per transition" rule: a component reports a
/// state change, not every call that observes the same state. Messages never contain the TMDB token
/// or session.
public struct DataEvent: Sendable, Hashable {
    /// How important an event is, from `debug` (one line per call) to `error` (needs attention).
    public enum Severity: Int, Sendable, Hashable, Comparable {
        /// Detail for diagnosing problems: one line per call or fetch.
        case debug
        /// Normal events: a refresh finished, an eviction ran.
        case info
        /// Noteworthy but normal: the remote went offline or came back.
        case notice
        /// Something went wrong and the daemon carries on degraded: storage full, token rejected.
        case warning
        /// A failure that needs attention.
        case error

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// How important the event is.
    public var severity: Severity
    /// A short stable name for tests and filters, e.g. `remote.offline`, `storage.full`.
    public var name: String
    /// One human sentence.
    public var message: String

    /// Creates an event.
    public init(_ severity: Severity, _ name: String, _ message: String) {
        self.severity = severity
        self.name = name
        self.message = message
    }
}
