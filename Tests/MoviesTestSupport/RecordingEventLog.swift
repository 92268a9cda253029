import Foundation
import MoviesData
import Synchronization

/// An ``EventLog`` that keeps every event, for tests that assert what reached the journal.
public final class RecordingEventLog: EventLog, Sendable {
    private let stored = Mutex<[DataEvent]>([])
    /// Events below this severity are reported as disabled and not kept.
    public let minimumSeverity: DataEvent.Severity

    /// Creates an empty log keeping events at `minimumSeverity` and above.
    public init(minimumSeverity: DataEvent.Severity = .debug) { self.minimumSeverity = minimumSeverity }

    public func isEnabled(_ severity: DataEvent.Severity) -> Bool { severity >= minimumSeverity }

    public func record(_ event: DataEvent) {
        guard isEnabled(event.severity) else { return }
        stored.withLock { $0.append(event) }
    }

    /// Every event kept so far, oldest first.
    public var events: [DataEvent] { stored.withLock { $0 } }

    /// The names of the events kept so far, oldest first.
    public var names: [String] { events.map(\.name) }
}
