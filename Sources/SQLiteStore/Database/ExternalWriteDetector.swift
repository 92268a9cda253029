#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Notices commits to the database by other processes (the `sqlite3` shell, a restore script), which
/// the store's own write count cannot see, so that memory validated by `SQLiteStore.writeRevision`
/// is not trusted past them.
///
/// Asks SQLite's `PRAGMA data_version` on a connection of its own, at most once per `interval`: the
/// value changes whenever another connection — another process, or this store's own writer — has
/// committed since the last ask. Each change counts once; a change caused by the store's own writer
/// is counted too (there is no telling them apart), which costs at most one extra re-validation
/// per interval.
final class ExternalWriteDetector: Sendable {
    private let probe: SQLiteReader
    private let intervalNanoseconds: UInt64
    /// The data version at the last ask (`nil` before the first), guarded so one caller asks at a time.
    private let dataVersion = Mutex<Int64?>(nil)
    /// Monotonic nanoseconds before which nobody asks again: read without the lock on every call.
    private let nextCheck = Atomic<UInt64>(0)
    private let changes = Atomic<UInt64>(0)

    /// Opens its own read-only connection to `path`; checks at most once per `interval` (zero:
    /// at every `check()`). The connection never waits for a lock (busy timeout 0): a check runs on
    /// whatever thread reads the revision, the event loop's included, and a locked file is simply
    /// asked again next time.
    init(path: String, interval: Duration) throws {
        probe = try SQLiteReader(path: path, busyTimeoutMilliseconds: 0)
        let (seconds, attoseconds) = max(.zero, interval).components
        intervalNanoseconds = UInt64(clamping: seconds) &* 1_000_000_000 &+ UInt64(clamping: attoseconds / 1_000_000_000)
    }

    /// How many changes have been noticed.
    var count: UInt64 { changes.load(ordering: .acquiring) }

    /// Asks SQLite for the data version if the interval has passed and no other caller is asking,
    /// and counts a change. Never waits: a busy probe or a failed ask is tried again next time.
    func check() {
        let now = Self.monotonicNanoseconds()
        guard now >= nextCheck.load(ordering: .relaxed) else { return }
        _ = dataVersion.withLockIfAvailable { dataVersion in
            guard now >= nextCheck.load(ordering: .relaxed) else { return }
            nextCheck.store(now &+ intervalNanoseconds, ordering: .relaxed)
            let asked: Int64?
            do {
                asked = try probe.tryRead { connection in try connection.integer("PRAGMA data_version") } ?? nil
            } catch {
                return
            }
            guard let version = asked else { return }
            if let previous = dataVersion, previous != version {
                changes.add(1, ordering: .releasing)
            }
            dataVersion = version
        }
    }

    private static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }

    /// Closes the probe's connection.
    func close() {
        probe.close()
    }
}
