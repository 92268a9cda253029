import FoundationEssentials
import Foundation
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing
@testable import SQLiteStore

/// Real SQLite failures are reported with their typed cause: a full database (its page limit
/// reached, as on a full disk) and a lock held by another connection's `BEGIN EXCLUSIVE`.
@Suite struct SQLiteStorageFaultTests {
    static func entry(_ key: String, bytes: Int) -> StoredResponse {
        StoredResponse(
            key: key, resource: .search, body: Data(repeating: 0x41, count: bytes),
            fetchedAt: Date(timeIntervalSince1970: 1000), expiresAt: Date(timeIntervalSince1970: 2000))
    }

    @Test func aFullDatabaseFailsWithTheFullFault() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 1)
            let storage = SQLiteResponseStorage(store: store)
            // "PRAGMA max_page_count = N: Set the maximum number of pages in the database file":
            // writes that need more pages fail with SQLITE_FULL, as on a full disk.
            try await store.write { connection in
                let pages = try connection.integer("PRAGMA page_count") ?? 1
                _ = try connection.integer("PRAGMA max_page_count = \(pages + 1)")
            }
            let error = await #expect(throws: SQLiteError.self) {
                try await storage.save(Self.entry("search:big:1", bytes: 256 * 1024))
            }
            #expect(error?.storageFault == .full)
            #expect(error?.storageDetail == "SQLite: database or disk is full")
            #expect(try await storage.response(forKey: "search:big:1") == nil)
            await store.close()
        }
    }

    @Test func aLockHeldByAnotherConnectionFailsWithinTheBusyTimeoutAsLocked() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 1, busyTimeoutMilliseconds: 50)
            let storage = SQLiteResponseStorage(store: store)
            let other = try SQLiteConnection(path: database.path, mode: .readWrite, busyTimeoutMilliseconds: 0)
            try other.execute("BEGIN EXCLUSIVE")
            let started = ContinuousClock.now
            let error = await #expect(throws: SQLiteError.self) {
                try await storage.save(Self.entry("search:locked:1", bytes: 10))
            }
            let waited = started.duration(to: .now)
            #expect(error?.storageFault == .locked)
            // Bounded by the 50 ms busy timeout, never SQLite's default 5 s: 3 s is a generous ceiling.
            #expect(waited < .seconds(3))
            // Reads go on under WAL while the other connection holds the write lock.
            #expect(try await storage.response(forKey: "search:locked:1") == nil)
            try other.execute("COMMIT")
            other.close()
            #expect(try await storage.save(Self.entry("search:locked:1", bytes: 10)))
            await store.close()
        }
    }

    @Test func aLockIsWaitedForOnceThenWritesFailAtOnceUntilItIsGoneAndEveryOutcomeIsReported() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 1, busyTimeoutMilliseconds: 2000)
            let monitor = StorageHealthMonitor(events: RecordingEventLog())
            store.reportHealth(to: monitor, as: .state)
            let storage = SQLiteResponseStorage(store: store)
            let other = try SQLiteConnection(path: database.path, mode: .readWrite, busyTimeoutMilliseconds: 0)
            try other.execute("BEGIN EXCLUSIVE")
            await #expect(throws: SQLiteError.self) { try await storage.save(Self.entry("search:locked:1", bytes: 10)) }
            #expect(monitor.state(of: .state) == .locked)
            // The lock is known: the next write does not wait the 2 s busy timeout again.
            let started = ContinuousClock.now
            await #expect(throws: SQLiteError.self) { try await storage.save(Self.entry("search:locked:2", bytes: 10)) }
            #expect(started.duration(to: .now) < .milliseconds(1500), "a known lock is not waited for twice")
            _ = try await storage.response(forKey: "search:locked:1")
            #expect(monitor.state(of: .state) == .locked, "a read proves nothing about the write lock")
            await store.probeWriteLock()
            #expect(monitor.state(of: .state) == .locked)
            try other.execute("COMMIT")
            other.close()
            await store.probeWriteLock()
            #expect(monitor.state(of: .state) == .ok, "the probe sees the lock gone without a write")
            #expect(try await storage.save(Self.entry("search:locked:1", bytes: 10)))
            await store.close()
        }
    }

    @Test func aSearchOverAFullRealDatabaseIsAnsweredNotStoredAndLoggedOnce() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 1)
            try await store.write { connection in
                let pages = try connection.integer("PRAGMA page_count") ?? 1
                _ = try connection.integer("PRAGMA max_page_count = \(pages)")
                try connection.execute("CREATE TABLE filler (bytes BLOB)")
            }
            // Pages migrations freed (a table rebuilt) are filled too, so the file is full indeed.
            for _ in 0..<10_000 {
                guard (try? await store.write { try $0.run("INSERT INTO filler VALUES (zeroblob(256))") }) != nil else { break }
            }
            let events = RecordingEventLog()
            let remote = ScriptedMoviesRemote()
            let titles = (1...40).map { "A movie with a long enough title to need pages \($0)" }
            await remote.script(.search(query: "matrix", page: 1, language: nil), .success(TMDBSampleBodies.ok(TMDBSampleBodies.searchPage(titles: titles))))
            let monitor = StorageHealthMonitor(events: events)
            let repository = DefaultMoviesRepository(
                storage: SQLiteResponseStorage(store: store), remote: remote, health: RemoteHealth(events: events), storageHealth: monitor)
            let request = try SearchRequest(query: #require(MovieQuery("matrix")), page: 1)
            for _ in 0..<3 {
                let last = try await FetchedUpdates.last(of: { try await repository.searchMovies(request, policy: .cacheThenNetwork, maxStaleSeconds: nil, emit: $0) })
                #expect(last.freshness.origin == .network)
                #expect(last.freshness.stored == false)
                #expect(last.freshness.storageFault == .full)
            }
            #expect(events.names.filter { $0.hasPrefix("storage.") } == ["storage.full"])
            #expect(monitor.storageHealth().state == .full)
            await store.close()
        }
    }
}
