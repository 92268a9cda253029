import Foundation
import MoviesData

/// An ``EventLog`` that keeps every event, for tests that assert what reached the journal.
public final class RecordingEventLog: EventLog, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [DataEvent] = []
    /// Events below this severity are reported as disabled and not kept.
    public let minimumSeverity: DataEvent.Severity

    /// Creates an empty log keeping events at `minimumSeverity` and above.
    public init(minimumSeverity: DataEvent.Severity = .debug) { self.minimumSeverity = minimumSeverity }

    public func isEnabled(_ severity: DataEvent.Severity) -> Bool { severity >= minimumSeverity }

    public func record(_ event: DataEvent) {
        guard isEnabled(event.severity) else { return }
        lock.withLock { stored.append(event) }
    }

    /// Every event kept so far, oldest first.
    public var events: [DataEvent] { lock.withLock { stored } }

    /// The names of the events kept so far, oldest first.
    public var names: [String] { events.map(\.name) }
}
