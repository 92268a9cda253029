import MoviesDomain
import Synchronization

/// What the watchlist refreshes did since the daemon started: runs by how they ended, the time
/// they took, and their entries by what became of them. Counted at the end of each run (a refresh
/// of several owners' lists is one run per owner), read by the daemon's metrics.
public final class RefreshMetrics: Sendable {
    /// A copy of the counts.
    public struct Snapshot: Sendable, Hashable {
        /// Runs that went through their lists.
        public var completed: UInt64 = 0
        /// Runs stopped before the end (cancelled, or the daemon stopping).
        public var cancelled: UInt64 = 0
        /// Seconds the completed runs took, added up.
        public var durationSeconds: Double = 0
        /// Entries fetched from TMDB.
        public var fetched: UInt64 = 0
        /// Entries left alone because their cached copy was current.
        public var current: UInt64 = 0
        /// Entries that failed.
        public var failed: UInt64 = 0
        /// Entries skipped (pages past a query's last page).
        public var skipped: UInt64 = 0

        /// Nothing counted.
        public init() {}
    }

    private let state = Mutex(Snapshot())

    /// Nothing counted yet.
    public init() {}

    /// The counts now.
    public var snapshot: Snapshot { state.withLock { $0 } }

    /// A run ended with `summary`.
    func completed(_ summary: RefreshSummary) {
        state.withLock { state in
            state.completed &+= 1
            state.durationSeconds += max(0, summary.durationSeconds)
            state.fetched &+= UInt64(max(0, summary.done))
            state.current &+= UInt64(max(0, summary.current ?? 0))
            state.failed &+= UInt64(max(0, summary.failed))
            state.skipped &+= UInt64(max(0, summary.skipped))
        }
    }

    /// A run stopped before its end.
    func cancelled() {
        state.withLock { $0.cancelled &+= 1 }
    }
}
