import Foundation
import MoviesData
import MoviesDomain
import SQLiteStore
import Synchronization
import Varlink

/// The daemon's metrics (`io.systemd.Metrics`) and the server that serves them beside `io.moviesd.Movies`.
extension AppDIContainer {
    /// The Varlink server of `service` and of the daemon's metrics, `io.systemd.Metrics`, on the
    /// same socket (the package links it into `/run/systemd/report/` for `systemd-report`).
    public func makeServer(service: MoviesVarlinkService) -> VarlinkServer {
        let reference = ServerReference()
        let metrics = SystemdMetricsInterface(source: makeMetrics(service: service, startedAt: Date()) {
            await reference.server?.metrics() ?? VarlinkServerMetrics()
        })
        let server = makeServer(handlers: [service, metrics])
        reference.server = server
        return server
    }

    /// The daemon's metrics, read from every component that counts; `server` reads the Varlink
    /// server's own counts.
    func makeMetrics(service: MoviesVarlinkService, startedAt: Date, server: @escaping @Sendable () async -> VarlinkServerMetrics) -> DaemonMetrics {
        let responseStorage = responseStorage
        let memory = responseStorage.memory
        let maintenance = makeCacheMaintenanceRepository()
        let (store, stateStore, storageHealth, health) = (store, stateStore, storageHealth, health)
        let (requestMetrics, refresher, changeFeed, tally) = (requestMetrics, refresher, changeFeed, service.answerTally)
        var readers = DaemonMetrics.Readers()
        readers.server = server
        readers.answers = { tally.snapshot }
        readers.requests = { requestMetrics.snapshot }
        readers.remote = { await health.remoteStatus() }
        readers.memory = { memory?.statistics }
        // The same counts as `Status` (a failure there is the storage's health to report).
        readers.cache = { try? await maintenance.statistics(pinsOf: nil) }
        readers.cacheEvictions = { responseStorage.evictions }
        readers.index = { try? await store.movieIndexCounts() }
        readers.refresh = { refresher.metrics.snapshot }
        if let changeFeed { readers.changeFeed = { changeFeed.runs } }
        readers.outbox = { try? await stateStore.outboxCounts() }
        let outboxMetrics = outboxMetrics
        readers.outboxSettled = { (outboxMetrics.delivered, outboxMetrics.rejected) }
        readers.storageFaults = { storageHealth.failures() }
        readers.storageStates = {
            Dictionary(uniqueKeysWithValues: StorageHealthMonitor.Database.allCases.map { ($0, storageHealth.state(of: $0)) })
        }
        readers.startedAt = startedAt
        return DaemonMetrics(readers: readers)
    }
}

/// The server, once made: the metrics it serves read its counts through this.
private final class ServerReference: Sendable {
    private let stored = Mutex<VarlinkServer?>(nil)

    var server: VarlinkServer? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
