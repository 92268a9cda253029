import FoundationEssentials
import MoviesData
import MoviesDomain
import Networking
import Varlink

/// The daemon's metrics, as `io.systemd.Metrics` serves them (and `movies metrics` prints them
/// for Prometheus): every family under `io.moviesd.`, read at the moment of the call from the
/// components that count (the event loop, the service's answers, TMDB's requests, the memory, the
/// databases, the refresher, the change feed, the storage's health).
///
/// Nothing here names a user, a list or a query: the families carry counts and states only, so
/// every caller may read them, like `Status`.
struct DaemonMetrics: MetricsSource {
    /// The prefix of every family: `systemd-report` lists the daemon under the name of its socket
    /// link, `/run/systemd/report/io.moviesd`, and takes only families under it.
    static let prefix = "io.moviesd."

    /// Where each part of a reading comes from (closures, so that tests can give their own).
    struct Readers: Sendable {
        var server: @Sendable () async -> VarlinkServerMetrics = { VarlinkServerMetrics() }
        var answers: @Sendable () -> [AnswerTally.Key: UInt64] = { [:] }
        var requests: @Sendable () -> RequestMetrics.Snapshot? = { nil }
        var remote: @Sendable () async -> RemoteStatus = { RemoteStatus(state: .unknown) }
        var memory: @Sendable () -> ResponseMemory.Statistics? = { nil }
        var cache: @Sendable () async -> CacheStats? = { nil }
        var cacheEvictions: @Sendable () -> UInt64 = { 0 }
        var index: @Sendable () async -> (rows: Int, queued: Int)? = { nil }
        var refresh: @Sendable () -> RefreshMetrics.Snapshot = { RefreshMetrics.Snapshot() }
        var changeFeed: @Sendable () -> [ChangeFeedSync.RunOutcome: UInt64]? = { nil }
        var outbox: @Sendable () async -> [String: Int]? = { nil }
        var outboxSettled: @Sendable () -> (delivered: UInt64, rejected: UInt64) = { (0, 0) }
        var storageFaults: @Sendable () -> [StorageHealthMonitor.Database: [StorageFault: UInt64]] = { [:] }
        var storageStates: @Sendable () -> [StorageHealthMonitor.Database: StorageHealth.State] = { [:] }
        var now: @Sendable () -> Date = { Date() }
        var startedAt = Date()
        var version = MoviesdRelease.version
        var build = DaemonMetrics.build
    }

    /// How this daemon was built: `release` or `debug`, and whether the event loop's counting
    /// was compiled out (`-DMOVIESD_NO_METRICS`, for the benchmark's comparison).
    static var build: String {
        var build: String
        #if DEBUG
        build = "debug"
        #else
        build = "release"
        #endif
        #if MOVIESD_NO_METRICS
        build += " (metrics compiled out)"
        #endif
        return build
    }

    private let readers: Readers
    /// Every family, in name order.
    let families: [MetricFamily]

    /// Metrics read through `readers`.
    init(readers: Readers) {
        self.readers = readers
        families = Self.table.map(\.family)
    }

    /// The families and their values, in name order (`systemd-report` sorts them so as well).
    static let table: [DaemonMetricFamily] = (callFamilies + remoteFamilies + storeFamilies + backgroundFamilies + identityFamilies)
        .sorted { $0.family.name < $1.family.name }

    func collect() async -> [Metric] {
        let reading = await read()
        return Self.table.flatMap { $0.values(reading) }
    }

    /// One reading of every component.
    func read() async -> MetricsReading {
        var reading = MetricsReading()
        reading.server = await readers.server()
        reading.answers = readers.answers()
        reading.requests = readers.requests()
        reading.remote = await readers.remote()
        reading.memory = readers.memory()
        reading.cache = await readers.cache()
        reading.cacheEvictions = readers.cacheEvictions()
        reading.index = await readers.index()
        reading.refresh = readers.refresh()
        reading.changeFeed = readers.changeFeed()
        reading.outbox = await readers.outbox()
        (reading.outboxDelivered, reading.outboxRejected) = readers.outboxSettled()
        reading.storageFaults = readers.storageFaults()
        reading.storageStates = readers.storageStates()
        reading.now = readers.now()
        reading.startedAt = readers.startedAt
        reading.version = readers.version
        reading.build = readers.build
        return reading
    }
}
