import CSQLite
import Glibc
import FoundationEssentials
import Foundation
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Synchronization
import Testing
@testable import SQLiteStore

@Suite struct SQLiteStoreTests {
    /// How a task of the test below ended.
    enum ReadOutcome: Sendable {
        /// The read holding the only reader: whether another task ran while it held it.
        case holder(sawOtherTaskRun: Bool)
        /// A read that waited for the reader, and what it read.
        case waiter(Int64?)
        /// The task the holder waits for.
        case releaser
    }

    /// A read waiting for a busy reader suspends; it does not hold a thread. On two threads, one
    /// read holds the only reader until a third task has run; eight reads wait meanwhile. Were a
    /// waiting read to block its thread, the first of them would take the second thread, the third
    /// task would never run, and the holder would give up after 10 s.
    @Test func readsWaitingForAReaderLeaveTheirThreadToOtherTasks() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 1)
            let executor = DedicatedThreadsExecutor(threadCount: 2)
            let outcomes = await withTaskExecutorPreference(executor) {
                await Self.holdTheReaderWhileOthersWait(store: store, waitingReads: 8)
            }
            executor.shutdown()
            await store.close()
            #expect(outcomes.contains { if case .holder(sawOtherTaskRun: true) = $0 { true } else { false } }, "the releasing task ran while reads waited")
            let read = outcomes.compactMap { if case .waiter(let value) = $0 { value } else { nil } }
            #expect(read == Array(repeating: 42, count: 8), "every waiting read got the reader in turn")
        }
    }

    private static func holdTheReaderWhileOthersWait(store: SQLiteStore, waitingReads: Int) async -> [ReadOutcome] {
        let (holding, holdingContinuation) = AsyncStream.makeStream(of: Void.self)
        let released = DispatchSemaphore(value: 0)
        return await withTaskGroup(of: ReadOutcome.self) { group in
            group.addTask {
                // Blocks its own thread on purpose: the holder needs another task to progress.
                let ran = try? await store.read { _ in
                    holdingContinuation.yield()
                    return released.wait(timeout: .now() + 10) == .success
                }
                return .holder(sawOtherTaskRun: ran ?? false)
            }
            var iterator = holding.makeAsyncIterator()
            _ = await iterator.next()
            for _ in 0..<waitingReads {
                group.addTask { .waiter(try? await store.read { try $0.integer("SELECT 42") }) }
            }
            group.addTask {
                released.signal()
                return .releaser
            }
            var outcomes: [ReadOutcome] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
    }

    @Test func manyMoreConcurrentReadsThanReadersAllComplete() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 2)
            let sum = try await withThrowingTaskGroup(of: Int64.self) { group in
                for index in 1...500 {
                    group.addTask { try await store.read { try $0.integer("SELECT \(index)") ?? 0 } }
                }
                return try await group.reduce(0, +)
            }
            #expect(sum == 500 * 501 / 2)
            await store.close()
        }
    }
    static func response(_ key: String, body: String = "{}", fetchedAt: Double = 100) -> StoredResponse {
        StoredResponse(key: key, resource: .search, body: Data(body.utf8), fetchedAt: Date(timeIntervalSince1970: fetchedAt), expiresAt: Date(timeIntervalSince1970: fetchedAt + 60))
    }

    /// Issue 30's profile: the outcome observer, held as a function directly in a `Mutex`, gained
    /// a pair of reabstraction thunks at every report, so the n-th report ran through 2n nested
    /// calls (75 % of the daemon's time once reads missed memory; a refresh's cost per entry grew
    /// with the entries). Every one of 5,000 reads is reported once, and the observer is called
    /// as deep in the stack the 5,000th time as the first (counted with glibc's `backtrace`).
    @Test func everyOutcomeIsReportedOnceThroughTheSameObserver() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 1)
            // glibc's backtrace(3) (execinfo.h is not in the Glibc module).
            typealias Backtrace = @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>?, Int32) -> Int32
            let symbol = try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "backtrace"))
            let backtrace = unsafeBitCast(symbol, to: Backtrace.self)
            let depths = Mutex<[Int]>([])
            store.reportOutcomes { outcome in
                guard case .readSucceeded = outcome else { return }
                var frames = [UnsafeMutableRawPointer?](repeating: nil, count: 65_536)
                let depth = Int(backtrace(&frames, Int32(frames.count)))
                depths.withLock { $0.append(depth) }
            }
            for _ in 0..<5_000 { _ = try await store.read { _ in 0 } }
            let seen = depths.withLock { $0 }
            #expect(seen.count == 5_000)
            let (first, last) = (seen.first ?? 0, seen.last ?? 0)
            #expect(last - first < 64, "the 5,000th report is \(last - first) frames deeper than the first")
            await store.close()
        }
    }

    @Test func opensAFreshDatabaseInWALModeAtTheLatestVersion() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 2)
            #expect(try await store.journalMode() == "wal")
            let settings = try await store.write { connection in
                [try connection.integer("PRAGMA user_version"), try connection.integer("PRAGMA synchronous"),
                 try connection.integer("PRAGMA foreign_keys"), try connection.integer("PRAGMA busy_timeout")]
            }
            #expect(settings == [Int64(StoreSchema.singleFileMigrations.count), 2, 1, 5000])  // synchronous FULL is 2: durable by default
            #expect(try await store.integrityCheck() == "ok")
            await store.close()
        }
    }

    @Test func opensAVersionZeroDatabaseAndAVersionOneDatabaseKeepingItsData() async throws {
        try await TemporaryDatabase.with { database in
            let empty = try SQLiteConnection(path: database.path, mode: .readWrite)
            try empty.execute("CREATE TABLE unrelated (x INT)")
            empty.close()
            let store = try SQLiteStore(path: database.path)
            try await SQLiteResponseStorage(store: store).save(Self.response("search:matrix"))
            await store.close()

            let reopened = try SQLiteStore(path: database.path)
            #expect(try await SQLiteResponseStorage(store: reopened).response(forKey: "search:matrix") != nil)
            #expect(try await reopened.read { try $0.integer("PRAGMA user_version") } == Int64(StoreSchema.singleFileMigrations.count))
            await reopened.close()
        }
    }

    @Test func refusesAFileThatIsNotADatabase() async throws {
        try await TemporaryDatabase.with { database in
            try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: database.path))
            let error = #expect(throws: SQLiteError.self) { try SQLiteStore(path: database.path) }
            #expect(error?.reason == .notADatabase)
            #expect(error?.message.contains(database.path) == true)
            #expect(error?.moviesError.code == .storage)
        }
    }

    @Test func dataSurvivesCloseAndReopenAndIntegrityIsOK() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path)
            let storage = SQLiteResponseStorage(store: store)
            for index in 0..<50 { try await storage.save(Self.response("movie:\(index)", body: "{\"id\":\(index)}")) }
            try await SQLiteWatchlistStorage(store: store).save(Watchlist(name: "kept", movieIDs: [603]))
            await store.close()
            // Closing checkpoints: no WAL file is left, or an empty one.
            let walSize = (try? FileManager.default.attributesOfItem(atPath: database.path + "-wal"))?[.size] as? Int
            #expect(walSize == nil || walSize == 0)
            let closedError = await #expect(throws: SQLiteError.self) { try await storage.statistics(now: Date(), byteBudget: 0) }
            #expect(closedError?.reason == .closed)

            let reopened = try SQLiteStore(path: database.path)
            let statistics = try await SQLiteResponseStorage(store: reopened).statistics(now: Date(timeIntervalSince1970: 0), byteBudget: 0)
            #expect(statistics.entries == 50)
            #expect(try await SQLiteResponseStorage(store: reopened).response(forKey: "movie:49")?.body == Data("{\"id\":49}".utf8))
            #expect(try await SQLiteWatchlistStorage(store: reopened).watchlists().map(\.movieIDs) == [[603]])
            #expect(try await reopened.integrityCheck() == "ok")
            await reopened.close()
        }
    }

    @Test func readsCompleteWhileAnotherWriterHoldsAnOpenWriteTransaction() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 3, busyTimeoutMilliseconds: 50)
            let storage = SQLiteResponseStorage(store: store)
            try await storage.save(Self.response("search:before", body: "old"))

            // A second writer (as another process would) opens a write transaction and keeps it open.
            let otherWriter = try SQLiteConnection(path: database.path, mode: .readWrite)
            try otherWriter.execute("BEGIN IMMEDIATE")
            try otherWriter.run("INSERT INTO responses (key, resource, body, content_type, http_status, fetched_at, expires_at, last_access, size) VALUES ('search:during', 'search', x'00', 'a', 200, 1, 2, 3, 1)")

            // Many parallel reads all complete and see the last committed snapshot.
            let bodies = try await withThrowingTaskGroup(of: Data?.self) { group in
                for _ in 0..<12 { group.addTask { try await storage.response(forKey: "search:before")?.body } }
                return try await group.reduce(into: [Data?]()) { $0.append($1) }
            }
            #expect(bodies == Array(repeating: Data("old".utf8), count: 12))
            #expect(try await storage.response(forKey: "search:during") == nil)
            #expect(try await storage.statistics(now: Date(), byteBudget: 0).entries == 1)

            // Meanwhile our writer cannot get the lock: writes wait for writers, reads did not.
            let busy = await #expect(throws: SQLiteError.self) { try await storage.save(Self.response("search:blocked")) }
            #expect(busy?.primaryResultCode == SQLITE_BUSY)

            try otherWriter.execute("COMMIT")
            #expect(try await storage.response(forKey: "search:during")?.body == Data([0]))
            otherWriter.close()
            await store.close()
        }
    }

    @Test(arguments: [1, 3])
    func manyConcurrentReadsShareTheReaderPoolAndAllSeeTheCommittedRows(readers: Int) async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: readers)
            let storage = SQLiteResponseStorage(store: store)
            for index in 0..<8 { try await storage.save(Self.response("search:\(index)", body: "body \(index)")) }
            let bodies = try await withThrowingTaskGroup(of: (Int, Data?).self) { group in
                for index in 0..<64 { group.addTask { (index % 8, try await storage.response(forKey: "search:\(index % 8)")?.body) } }
                return try await group.reduce(into: [(Int, Data?)]()) { $0.append($1) }
            }
            #expect(bodies.count == 64)
            #expect(bodies.allSatisfy { index, body in body == Data("body \(index)".utf8) })
            await store.close()
            await #expect(throws: SQLiteError.self) { try await storage.response(forKey: "search:0") }
        }
    }

    // MARK: - Write revision

    private struct Abandoned: Error {}

    @Test func theWriteRevisionGrowsAfterEveryWriteEvenARolledBackOneAndNeverForReadsOrAccessTimes() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 2)
            let storage = SQLiteResponseStorage(store: store)
            let initial = store.writeRevision

            try await storage.save(Self.response("search:a"))
            let afterSave = store.writeRevision
            #expect(afterSave > initial)

            // Reads (through the storage and raw) leave it alone.
            _ = try await storage.response(forKey: "search:a")
            _ = try await storage.response(forKey: "search:missing")
            _ = try await store.read { try $0.integer("SELECT count(*) FROM responses") }
            _ = try await storage.statistics(now: Date(), byteBudget: 0)
            #expect(store.writeRevision == afterSave)

            // A transaction whose body throws rolls back, and still counts as ended.
            await #expect(throws: Abandoned.self) {
                try await store.write { connection in
                    try connection.run("DELETE FROM responses")
                    throw Abandoned()
                }
            }
            let afterRollback = store.writeRevision
            #expect(afterRollback > afterSave)
            #expect(try await storage.response(forKey: "search:a") != nil)  // really rolled back

            // A failing statement too.
            await #expect(throws: SQLiteError.self) {
                try await store.write { connection in try connection.execute("INSERT INTO no_such_table VALUES (1)") }
            }
            let afterFailure = store.writeRevision
            #expect(afterFailure > afterRollback)

            // An access-time flush changes no stored response, so it is not counted; an empty
            // ordinary write is.
            _ = try await storage.response(forKey: "search:a")
            try await store.flushAccessTimes()
            #expect(store.writeRevision == afterFailure)
            try await store.write { _ in () }
            #expect(store.writeRevision > afterFailure)
            await store.close()
        }
    }
}
