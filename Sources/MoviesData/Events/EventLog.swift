/// The port through which the data layer reports ``DataEvent``s (the daemon adapts it to its journal
/// logger; tests use `RecordingEventLog`).
public protocol EventLog: Sendable {
    /// Whether events of `severity` are written at all, so callers can skip building debug messages.
    func isEnabled(_ severity: DataEvent.Severity) -> Bool
    /// Reports `event`. Must not block for long: it is called on the request path.
    func record(_ event: DataEvent)
}

/// An ``EventLog`` that drops every event (the default where nobody listens).
public struct DiscardingEventLog: EventLog {
    /// Creates the log.
    public init() {}
    public func isEnabled(_ severity: DataEvent.Severity) -> Bool { false }
    public func record(_ event: DataEvent) {}
}
