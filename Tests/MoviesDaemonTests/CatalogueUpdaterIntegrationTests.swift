import Foundation
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Networking
import SQLiteStore
import Synchronization
import Testing
import TMDBStub

/// The catalogue's update against the stand-in TMDB over loopback, libcurl and zlib as in the
/// daemon: the newest day's export, earlier days when it is missing, and a failed download that
/// leaves the catalogue whole.
@Suite(.blocksThreads) struct CatalogueUpdaterIntegrationTests {
    /// 2026-03-05 12:00 UTC: that day's export is out.
    static let noon = Date(timeIntervalSince1970: 1_772_712_000)

    static func updater(_ catalogue: SQLiteCatalogue, port: Int, scratch: ScratchDirectory) -> CatalogueUpdater {
        var settings = CatalogueSettings()
        settings.url = "http://127.0.0.1:\(port)/p/exports/"
        settings.earlierDays = 2
        return CatalogueUpdater(
            storage: catalogue, transport: CurlTransport(), settings: settings, downloadPath: scratch.file("export.json.gz"),
            now: { Self.noon })
    }

    @Test func downloadsTheNewestExportThenFallsBackToEarlierDays() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        var configuration = TMDBStubConfiguration()
        configuration.exportSize = 5_000
        configuration.movieCount = 0  // the export's made-up titles (and the few well-known movies)
        let stub = TMDBStubServer(configuration: configuration)
        let ports = try stub.start()
        defer { stub.stop() }
        let catalogue = try SQLiteCatalogue(path: scratch.file("catalogue.sqlite3"))
        let updater = Self.updater(catalogue, port: ports.port, scratch: scratch)
        #expect(await updater.isDue())

        let first = try await updater.update()
        #expect(first.exportDate == "2026-03-05")
        #expect((4_000...5_000).contains(first.titles) && first.added == first.titles && first.skipped > 0)
        #expect(!FileManager.default.fileExists(atPath: scratch.file("export.json.gz")))
        #expect(!(await updater.isDue()))

        // Today's file missing: yesterday's is imported, as a difference.
        var faults = StubFaults()
        faults.exportMissing = ["2026-03-05"]
        stub.faults = faults
        let fallback = try await updater.update()
        #expect(fallback.exportDate == "2026-03-04")
        #expect(fallback.added + fallback.removed + fallback.retitled < 100)

        // Every day tried missing, then a truncated file: the catalogue of 2026-03-04 stays.
        faults.exportMissing = ["*"]
        stub.faults = faults
        await #expect(throws: CatalogueError(.exportNotFound, "No export was found for 2026-03-05, 2026-03-04, 2026-03-03 at http://127.0.0.1:\(ports.port)/p/exports/.")) {
            try await updater.update()
        }
        faults = StubFaults()
        faults.export = "truncated"
        stub.faults = faults
        do {
            _ = try await updater.update()
            Issue.record("a truncated export was imported")
        } catch let error as CatalogueError {
            #expect(error.code == .truncated)
        }
        let status = try await catalogue.status()
        #expect(status.exportDate == "2026-03-04" && status.titles == fallback.titles)
    }

    /// The timer imports when never imported and when the last import is older than MaxAge=,
    /// not in between; a failure is said at error with the catalogue that is kept.
    @Test func theTimerImportsWhenTheLastImportIsOlderThanMaxAge() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        var configuration = TMDBStubConfiguration()
        configuration.exportSize = 2_000
        let stub = TMDBStubServer(configuration: configuration)
        let ports = try stub.start()
        defer { stub.stop() }
        let catalogue = try SQLiteCatalogue(path: scratch.file("catalogue.sqlite3"))
        var settings = CatalogueSettings()
        settings.url = "http://127.0.0.1:\(ports.port)/p/exports/movie_ids_MM_DD_YYYY.json.gz"
        settings.earlierDays = 0
        settings.maxAgeSeconds = 7 * 86_400
        let clock = TestClock(Self.noon)
        let events = RecordingEventLog()
        let updater = CatalogueUpdater(
            storage: catalogue, transport: CurlTransport(), settings: settings, downloadPath: scratch.file("export.json.gz"),
            now: clock.now, events: events)
        // Each sleep moves the clock on by the day in `steps`; the last one stops the timer.
        let steps = Mutex<[Double]>([86_400, 86_400 * 6.5, 86_400, 86_400])
        let faults = stub
        await updater.runSchedule(firstCheckSeconds: 0, checkEverySeconds: 3_600) { _ in
            let next = steps.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            guard let next else { throw CancellationError() }
            clock.advance(by: next)
            if steps.withLock({ $0.count }) == 0 {
                var missing = StubFaults()
                missing.exportMissing = ["*"]
                faults.faults = missing
            }
        }
        // The first check (after the first sleep, day 1): never imported, so it imports; day 7.5
        // is 6.5 days later, not due; day 8.5 is 7.5 days later, due; day 9.5 is not.
        #expect(events.names.filter { $0 == "catalogue.imported" }.count == 2, "\(events.names)")
        #expect(try await catalogue.status().exportDate == "2026-03-13")
        #expect(events.names.filter { $0 == "catalogue.failed" }.isEmpty)
        // Older than MaxAge= with every file missing: said at error, the catalogue kept.
        clock.advance(by: 86_400 * 8)
        await #expect(throws: CatalogueError.self) { try await updater.update() }
        let failure = try #require(events.events.last)
        #expect(failure.name == "catalogue.failed" && failure.severity == .error)
        #expect(failure.message.contains("the catalogue of 2026-03-13 is kept"), "\(failure.message)")
        #expect(stub.requestCount(path: "/p/exports/movie_ids_03_13_2026.json.gz") == 1)
    }
}
