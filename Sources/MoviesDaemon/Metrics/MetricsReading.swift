import FoundationEssentials
import MoviesData
import MoviesDomain
import Networking
import Varlink

/// Everything the daemon's metrics report, read once per `List` call (the counters of each
/// component, copied; the database counts, queried) so that every family of one call reads the
/// same moment.
struct MetricsReading: Sendable {
    /// The Varlink server's calls and connections (every event loop's, added up).
    var server = VarlinkServerMetrics()
    /// Answers the service's tasks sent, by method and origin (answers from memory are the server's).
    var answers: [AnswerTally.Key: UInt64] = [:]
    /// TMDB's requests (`nil`: no credential, no remote).
    var requests: RequestMetrics.Snapshot?
    /// TMDB's state.
    var remote = RemoteStatus(state: .unknown)
    /// The memory of cached entries (`nil`: none configured).
    var memory: ResponseMemory.Statistics?
    /// The cache database's entries (`nil`: it could not be read).
    var cache: CacheStats?
    /// Entries evicted from the cache database to fit its budget.
    var cacheEvictions: UInt64 = 0
    /// The local search index (`nil`: it could not be read).
    var index: (rows: Int, queued: Int)?
    /// Watchlist refresh runs.
    var refresh = RefreshMetrics.Snapshot()
    /// Change-feed runs by outcome (`nil`: the change feed is off).
    var changeFeed: [ChangeFeedSync.RunOutcome: UInt64]?
    /// The accounts' outbox entries by state (`nil`: it could not be read).
    var outbox: [String: Int]?
    /// Edits the outboxes delivered, and had refused, since the start.
    var outboxDelivered: UInt64 = 0
    var outboxRejected: UInt64 = 0
    /// Storage failures by database and fault.
    var storageFaults: [StorageHealthMonitor.Database: [StorageFault: UInt64]] = [:]
    /// Each database's state now.
    var storageStates: [StorageHealthMonitor.Database: StorageHealth.State] = [:]
    /// When the reading was taken.
    var now = Date()
    /// When the daemon started.
    var startedAt = Date()
    /// The daemon's version.
    var version = ""
    /// How it was built.
    var build = ""
}
