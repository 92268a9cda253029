import FoundationEssentials
import MoviesDomain
import Synchronization

/// Tracks the local database's health from the outcome of storage operations and reports each
/// change once to the journal: the first failure of a cause at `warning` (`error` for a damaged
/// file), the return to health at `notice`; repeated failures of the same cause say nothing more.
///
/// A mutex, not an actor: recording is a few loads and stores on the request path.
public final class StorageHealthMonitor: StorageHealthRepository, Sendable {
    private let events: any EventLog
    private let now: @Sendable () -> Date
    private let current = Mutex<StorageHealth>(.ok)

    /// Creates a monitor reporting to `events`.
    public init(events: any EventLog = DiscardingEventLog(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.events = events
        self.now = now
    }

    /// The current health.
    public func storageHealth() -> StorageHealth {
        current.withLock { $0 }
    }

    /// Records that `action` (for example "storing a response") failed with `error`; returns the
    /// typed error to hand on (`MoviesError` with code `.storage` and its fault).
    @discardableResult
    public func recordFailure(_ error: any Error, during action: String) -> MoviesError {
        let failure = MoviesError.storage(wrapping: error)
        let fault = failure.storageFault ?? .unavailable
        let state = StorageHealth.State(fault)
        let changed = current.withLock { health -> Bool in
            let changed = health.state != state
            if changed { health.since = now() }
            health.state = state
            health.lastError = failure.message
            return changed
        }
        if changed {
            events.record(DataEvent(
                fault == .corrupt ? .error : .warning, "storage.\(fault.rawValue)",
                "storage degraded while \(action): \(failure.message); answers are not being cached"))
        }
        return failure
    }

    /// Records a successful write: back to `ok` (reported once) after a failure.
    public func recordSuccess() {
        let recovered = current.withLock { health -> StorageHealth.State? in
            guard health.state != .ok else { return nil }
            let previous = health.state
            health = StorageHealth(state: .ok, since: now())
            return previous
        }
        if let recovered {
            events.record(DataEvent(.notice, "storage.ok", "storage recovered (was \(recovered.rawValue)); answers are cached again"))
        }
    }
}
