import FoundationEssentials
import MoviesDomain
import Synchronization

/// Tracks the health of the daemon's two databases from the outcome of every storage operation and
/// reports each change once to the journal: a failure at `error` (answers not cached, or edits not
/// saved), the return to health at `notice`; repeated failures of the same cause say nothing more.
///
/// What clears a fault is the next operation that would have met it: a fault a write met clears on
/// the next successful write (reads keep working on a full disk, so they prove nothing); a fault a
/// read met clears on any success; `corrupt` stays until a restart, which rebuilds a damaged cache
/// (a damaged file does not heal, and flipping back and forth as undamaged pages are read would
/// only flood the journal). `Status` reports the most recent fault of either database.
///
/// A mutex, not an actor: recording is a few loads and stores on the request path.
public final class StorageHealthMonitor: StorageHealthRepository, Sendable {
    /// Which database an outcome is about.
    public enum Database: String, Sendable, Hashable, CaseIterable {
        /// `state.sqlite3`: what users made (watchlists, the account outbox, recent queries).
        case state
        /// `cache.sqlite3`: TMDB's responses.
        case cache

        /// What a fault costs users, for the journal.
        var consequence: String {
            switch self {
            case .state: "edits are not being saved"
            case .cache: "answers are not being cached"
            }
        }
    }

    /// Whether an operation wrote.
    public enum Operation: Sendable {
        case read
        case write
    }

    private struct Fault {
        var health: StorageHealth
        var metByWrite: Bool
    }

    private let events: any EventLog
    private let now: @Sendable () -> Date
    private let faults = Mutex<[Database: Fault]>([:])
    /// Every failure recorded, by database and fault (not only the changes the journal says).
    private let faultCounts = Mutex<[Database: [StorageFault: UInt64]]>([:])
    private let recoveredAt = Mutex<Date?>(nil)

    /// Creates a monitor reporting to `events`.
    public init(events: any EventLog = DiscardingEventLog(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.events = events
        self.now = now
    }

    /// The current health: the most recent fault of either database, else `ok` (since the last
    /// recovery, if any).
    public func storageHealth() -> StorageHealth {
        let latest = faults.withLock { faults in
            faults.values.map(\.health).max { ($0.since ?? .distantPast) < ($1.since ?? .distantPast) }
        }
        return latest ?? StorageHealth(state: .ok, since: recoveredAt.withLock { $0 })
    }

    /// Every failure recorded since the monitor was made, by database and fault.
    public func failures() -> [Database: [StorageFault: UInt64]] {
        faultCounts.withLock { $0 }
    }

    /// The state of one database.
    public func state(of database: Database) -> StorageHealth.State {
        faults.withLock { $0[database]?.health.state ?? .ok }
    }

    /// Records that `action` (for example "storing a response") on `database` failed with `error`;
    /// returns the typed error to hand on (`MoviesError` with code `.storage` and its fault).
    @discardableResult
    public func recordFailure(_ error: any Error, during action: String, in database: Database = .cache, operation: Operation = .write) -> MoviesError {
        let failure = MoviesError.storage(wrapping: error)
        let fault = failure.storageFault ?? .unavailable
        let state = StorageHealth.State(fault)
        let prefix = database == .state ? "the state database: " : ""
        faultCounts.withLock { $0[database, default: [:]][fault, default: 0] &+= 1 }
        let changed = faults.withLock { faults -> Bool in
            if let current = faults[database] {
                // A damaged file stays so; another cause does not hide it.
                if current.health.state == .corrupt { return false }
                if current.health.state == state {
                    faults[database]?.health.lastError = prefix + failure.message
                    faults[database]?.metByWrite = current.metByWrite || operation == .write
                    return false
                }
            }
            faults[database] = Fault(health: StorageHealth(state: state, since: now(), lastError: prefix + failure.message), metByWrite: operation == .write)
            return true
        }
        if changed {
            events.record(DataEvent(
                .error, "storage.\(fault.rawValue)",
                "storage degraded while \(action) (\(database.rawValue) database): \(failure.message); \(database.consequence)"))
        }
        return failure
    }

    /// Records a successful operation on `database`: back to `ok` (reported once) when it proves
    /// the fault gone.
    public func recordSuccess(in database: Database = .cache, operation: Operation = .write) {
        let recovered = faults.withLock { faults -> StorageHealth.State? in
            guard let current = faults[database], current.health.state != .corrupt,
                  operation == .write || !current.metByWrite else { return nil }
            faults[database] = nil
            return current.health.state
        }
        if let recovered {
            recoveredAt.withLock { $0 = now() }
            events.record(DataEvent(.notice, "storage.ok", "storage recovered (the \(database.rawValue) database was \(recovered.rawValue))"))
        }
    }
}
