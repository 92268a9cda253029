import FoundationEssentials
import Foundation
import MoviesData
import MoviesDomain
import Synchronization
import Testing
@testable import SQLiteStore

/// Opening the state and cache databases: migration from the old single file, the start-up
/// integrity check, a damaged cache rebuilt, a damaged state database refused and left untouched.
@Suite struct MoviesDatabasesTests {
    struct Paths {
        let database: TemporaryDatabase
        var cache: String { database.directory.appendingPathComponent("cache.sqlite3").path }
        var state: String { database.directory.appendingPathComponent("state.sqlite3").path }
    }

    /// Opens the databases, collecting the events.
    static func open(_ paths: Paths, timeLimit: Duration = .seconds(30)) throws(DatabaseOpenError) -> (MoviesDatabases, [MoviesDatabases.Event]) {
        var events: [MoviesDatabases.Event] = []
        let databases = try MoviesDatabases.open(
            cachePath: paths.cache, statePath: paths.state,
            options: .init(busyTimeoutMilliseconds: 1000, integrityCheckTimeLimit: timeLimit),
            now: { 1_795_000_000 }, report: { events.append($0) })
        return (databases, events)
    }

    static func response(_ key: String, bytes: Int = 100) -> StoredResponse {
        StoredResponse(key: key, resource: .search, body: Data(repeating: 0x7b, count: bytes),
                       fetchedAt: Date(timeIntervalSince1970: 1000), expiresAt: Date(timeIntervalSince1970: 2000))
    }

    /// A database as moviesd 0.x wrote it: one file, the single-file schema up to `version`.
    static func makeLegacyFile(_ path: String, version: Int) async throws {
        let legacy = try SQLiteStore(path: path, readers: 1, migrator: SQLiteMigrator(migrations: Array(StoreSchema.migrations.prefix(version))))
        // As moviesd 0.x stored it: no reply column yet.
        let old = response("search:matrix:1")
        try await legacy.write { connection in
            try connection.run("""
                INSERT INTO responses (key, resource, body, content_type, http_status, fetched_at, expires_at, last_access, size)
                VALUES (?, ?, ?, ?, 200, ?, ?, ?, ?)
                """, [.text(old.key), .text(old.resource.rawValue), .blob(old.body), .text(old.contentType),
                      .date(old.fetchedAt), .date(old.expiresAt), .real(1000), .int(old.body.count)])
        }
        // As moviesd 0.x stored them: one list for everybody.
        try await legacy.write { connection in
            try connection.run("INSERT INTO recent_queries (canonical, query, saved_at) VALUES ('matrix', 'Matrix', ?)", [.date(Date(timeIntervalSince1970: 10))])
            try connection.run("INSERT INTO recent_queries (canonical, query, saved_at) VALUES ('alien', 'Alien', ?)", [.date(Date(timeIntervalSince1970: 20))])
        }
        if version >= 2 {
            // As moviesd 0.x stored them: lists without owners.
            try await legacy.write { connection in
                try connection.run("INSERT INTO watchlists (name) VALUES ('noir')")
                try connection.run("INSERT INTO watchlist_queries (watchlist, position, canonical, query, pages) VALUES ('noir', 0, 'zodiac', 'Zodiac', 2)")
                try connection.run("INSERT INTO watchlist_movies (watchlist, position, movie_id) VALUES ('noir', 0, 603), ('noir', 1, 11)")
            }
        }
        await legacy.close()
    }

    /// The cache database's tables: responses, who pins them, and the local search index (no user data).
    static let cacheTables = ["change_feed", "movie_index_digests", "movie_index_queue", "movie_sources", "movie_text", "pinned_bytes", "pins", "responses"]

    static func tables(_ store: SQLiteStore) async throws -> [String] {
        try await store.read { connection in
            // The FTS5 tables of the search index and their shadow tables are left out.
            let statement = try connection.prepare("""
                SELECT name FROM sqlite_schema
                WHERE type = 'table' AND name NOT GLOB 'movie_words*' AND name NOT GLOB 'movie_trigrams*' ORDER BY name
                """)
            var names: [String] = []
            while try statement.step() { names.append(statement.text(at: 0) ?? "") }
            return names
        }
    }

    @Test func aVersion1SingleFileMovesItsRecentQueriesIntoTheStateDatabase() async throws {
        try await TemporaryDatabase.with { database in
            let paths = Paths(database: database)
            try await Self.makeLegacyFile(paths.cache, version: 1)
            let (databases, events) = try Self.open(paths)
            #expect(events == [.movedUserData(from: paths.cache, to: paths.state)])
            let recent = try await SQLiteRecentQueriesStorage(store: databases.state).recentQueries(of: .root, maxCount: 10)
            #expect(recent.map(\.query) == ["Alien", "Matrix"])
            #expect(try await SQLiteResponseStorage(store: databases.cache).response(forKey: "search:matrix:1") != nil)
            #expect(try await Self.tables(databases.cache) == Self.cacheTables)
            #expect(try await databases.cache.read { try SQLiteMigrator.userVersion(of: $0) } == StoreSchema.cacheMigrations.count)
            await databases.close()
            #expect(!FileManager.default.fileExists(atPath: paths.state + ".migrating"))
        }
    }

    @Test func aVersion2SingleFileMovesWatchlistsTooAndASecondOpenMovesNothing() async throws {
        try await TemporaryDatabase.with { database in
            let paths = Paths(database: database)
            try await Self.makeLegacyFile(paths.cache, version: 2)
            let (first, events) = try Self.open(paths)
            #expect(events.count == 1)
            await first.close()
            let (databases, again) = try Self.open(paths)
            #expect(again.isEmpty)
            let lists = try await SQLiteWatchlistStorage(store: databases.state).watchlists()
            #expect(lists.map(\.name) == ["noir"])
            #expect(lists.map(\.owner) == [.system], "a list of before is the system's")
            #expect(lists.first?.queries.map(\.query.query) == ["Zodiac"])
            #expect(lists.first?.queries.map(\.pages) == [2])
            #expect(lists.first?.movieIDs == [603, 11])
            #expect(try await SQLiteRecentQueriesStorage(store: databases.state).recentQueries(of: .root, maxCount: 10).count == 2)
            await databases.close()
        }
    }

    @Test func aCrashAfterTheStateDatabaseWasWrittenLosesNothing() async throws {
        try await TemporaryDatabase.with { database in
            let paths = Paths(database: database)
            try await Self.makeLegacyFile(paths.cache, version: 2)
            // The split completed but the cache was never migrated (a crash in between).
            #expect(try LegacyDatabaseSplit.moveUserData(from: paths.cache, to: paths.state, busyTimeoutMilliseconds: 1000))
            let (databases, events) = try Self.open(paths)
            #expect(events.isEmpty)
            #expect(try await SQLiteWatchlistStorage(store: databases.state).watchlists().map(\.name) == ["noir"])
            #expect(try await Self.tables(databases.cache) == Self.cacheTables)
            await databases.close()
        }
    }

    @Test func aNewDirectoryGetsBothDatabases() async throws {
        try await TemporaryDatabase.with { database in
            let paths = Paths(database: database)
            let (databases, events) = try Self.open(paths)
            #expect(events.isEmpty)
            #expect(try await Self.tables(databases.cache) == Self.cacheTables)
            #expect(try await Self.tables(databases.state) == ["account_items", "account_outbox", "account_sync", "last_refresh", "recent_queries", "sqlite_sequence", "watchlist_movies", "watchlist_queries", "watchlists"])
            await databases.close()
        }
    }

    @Test func theStateDatabaseCommitsToDiskAndTheCacheOnlyConsistently() async throws {
        try await TemporaryDatabase.with { database in
            let (databases, _) = try Self.open(Paths(database: database))
            let synchronous = { (store: SQLiteStore) in try await store.write { connection in try connection.integer("PRAGMA synchronous") } }
            #expect(try await synchronous(databases.state) == 2, "FULL: an acknowledged edit survives a power cut")
            #expect(try await synchronous(databases.cache) == 1, "NORMAL: TMDB can give a lost page again")
            await databases.close()
        }
    }

    /// A cache of several pages, closed (checkpointed into the file).
    static func makeCache(_ paths: Paths) async throws {
        let (databases, _) = try open(paths)
        let storage = SQLiteResponseStorage(store: databases.cache)
        for index in 0..<40 { try await storage.save(response("search:q\(index):1", bytes: 1500)) }
        await databases.close()
    }

    @Test(arguments: [1, 2, 5])
    func aDamagedCacheIsMovedAsideAndRebuiltEmpty(page: Int) async throws {
        try await TemporaryDatabase.with { database in
            let paths = Paths(database: database)
            try await Self.makeCache(paths)
            try DamagedFile.overwritePage(page, of: paths.cache)
            let damaged = try DamagedFile.bytes(paths.cache)
            let (databases, events) = try Self.open(paths)
            guard case let .cacheQuarantined(path, moved, reason)? = events.first else {
                Issue.record("no quarantine event: \(events)")
                await databases.close()
                return
            }
            #expect(path == paths.cache)
            #expect(moved == paths.cache + ".corrupt-20261118T110640Z")
            #expect(!reason.isEmpty)
            #expect(try DamagedFile.bytes(moved) == damaged)
            let storage = SQLiteResponseStorage(store: databases.cache)
            #expect(try await storage.statistics(now: Date(), byteBudget: 1).entries == 0)
            #expect(try await storage.save(Self.response("search:after:1")))
            await databases.close()
        }
    }

    @Test func aDamagedStateDatabaseIsRefusedWithOneLineAndLeftUntouched() async throws {
        try await TemporaryDatabase.with { database in
            let paths = Paths(database: database)
            let (databases, _) = try Self.open(paths)
            let watchlists = SQLiteWatchlistStorage(store: databases.state)
            for index in 0..<60 {
                try await watchlists.save(Watchlist(name: "list-\(index)-" + String(repeating: "x", count: 200), movieIDs: Array(1...20)))
            }
            await databases.close()
            try DamagedFile.overwritePage(3, of: paths.state)
            let before = try DamagedFile.bytes(paths.state)
            #expect(throws: DatabaseOpenError.self) { try Self.open(paths) }
            do {
                _ = try Self.open(paths)
            } catch let error as DatabaseOpenError {
                #expect(error.kind == .stateDamaged)
                #expect(!error.message.contains("\n"))
                #expect(error.message.contains(paths.state))
                #expect(error.message.contains("restore it from a backup"))
            }
            #expect(try DamagedFile.bytes(paths.state) == before)
            let names = try FileManager.default.contentsOfDirectory(atPath: database.directory.path)
            #expect(!names.contains { $0.hasPrefix("state.sqlite3.") })
        }
    }

    @Test func aHalfTruncatedStateDatabaseIsRefusedWithOneLine() async throws {
        try await TemporaryDatabase.with { database in
            let paths = Paths(database: database)
            let (databases, _) = try Self.open(paths)
            let watchlists = SQLiteWatchlistStorage(store: databases.state)
            for index in 0..<60 {
                try await watchlists.save(Watchlist(name: "list-\(index)-" + String(repeating: "x", count: 200), movieIDs: Array(1...20)))
            }
            await databases.close()
            try DamagedFile.truncateToHalf(paths.state)
            let before = try DamagedFile.bytes(paths.state)
            do {
                _ = try Self.open(paths)
                Issue.record("a half-truncated state database was accepted")
            } catch let error as DatabaseOpenError {
                #expect(error.kind == .stateDamaged)
                #expect(error.message.contains("restore it from a backup"))
            }
            #expect(try DamagedFile.bytes(paths.state) == before)
        }
    }

    @Test func theIntegrityCheckIsBoundedInTime() async throws {
        try await TemporaryDatabase.with { database in
            let paths = Paths(database: database)
            try await Self.makeCache(paths)
            let (databases, events) = try Self.open(paths, timeLimit: .zero)
            // The state database is a few pages: its check may finish before the first look at the clock.
            #expect(events.contains(.integrityCheckIncomplete(path: paths.cache)))
            #expect(try await SQLiteResponseStorage(store: databases.cache).statistics(now: Date(), byteBudget: 1).entries == 40)
            await databases.close()
        }
    }
}
