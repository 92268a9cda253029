import Foundation
import MoviesTestSupport
import Testing

/// The built `moviesd` with damaged databases (issue 13): a damaged cache is moved aside and
/// rebuilt while the daemon keeps serving; a damaged or half-truncated state database stops it with
/// one line on stderr and exit 73, and the file is left exactly as it was.
@Suite("moviesd with damaged databases", .serialized, .blocksThreads)
struct StorageEndToEndTests {
    static let pageSize = 4096

    var sqlite3: String { "/usr/bin/sqlite3" }

    /// A state database of many pages, written by `sqlite3` with the daemon stopped.
    func fillStateDatabase(_ sandbox: Sandbox) throws {
        let sql = """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
            INSERT INTO watchlists (owner, name) SELECT -1, 'list-' || i || '-' || hex(randomblob(64)) FROM n;
            """
        let result = try ProcessRunner.run(sqlite3, [Self.statePath(sandbox), sql])
        #expect(result.status == 0, "\(result.stderr)")
    }

    static func statePath(_ sandbox: Sandbox) -> String {
        sandbox.directory.appendingPathComponent("state.sqlite3").path
    }

    /// Another process (python's sqlite3) holding `BEGIN EXCLUSIVE` on `path` until stopped;
    /// returns once it holds the lock (or has died, which the caller's checks then show).
    static func holdLock(on path: String, in sandbox: Sandbox, name: String) throws -> BackgroundProcess {
        let holder = try BackgroundProcess(
            "/usr/bin/env",
            [ToolRequirement.python, "-c", """
                import sqlite3, sys, time
                connection = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10)
                connection.execute("BEGIN EXCLUSIVE")
                print("locked", flush=True)
                time.sleep(600)
                """, path],
            logDirectory: sandbox.directory, name: name)
        #expect(BackgroundProcess.waitUntil { holder.stdout.contains("locked") || !holder.isRunning }, "\(holder.stderr)")
        return holder
    }

    static func overwritePage(_ page: Int, of path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64((page - 1) * pageSize))
        var generator = SystemRandomNumberGenerator()
        try handle.write(contentsOf: Data((0..<pageSize).map { _ in UInt8.random(in: 0...255, using: &generator) }))
    }

    /// Starts the daemon once (creating both databases), then stops it cleanly.
    func createDatabases(_ sandbox: Sandbox, search: Bool = false) throws {
        try sandbox.startDaemon()
        // An answered call: the daemon is serving (its SIGTERM handler is installed after it binds).
        #expect(try sandbox.movies(["status"]).status == 0)
        if search { #expect(try sandbox.movies(["search", "matrix"]).status == 0) }
        #expect(sandbox.daemon?.stop(signal: SIGTERM, timeout: ProcessDeadline.seconds) == 0)
        try? FileManager.default.removeItem(atPath: sandbox.socketPath)
    }

    func runDaemon(_ sandbox: Sandbox) throws -> ProcessResult {
        try ProcessRunner.run(
            BinaryLocator.path("moviesd"),
            ["--socket", sandbox.socketPath, "--database", sandbox.databasePath, "--remote-url", "http://127.0.0.1:\(sandbox.stubPort)/3/"],
            environment: ["MOVIESD_TMDB_TOKEN": Sandbox.token], timeout: ProcessDeadline.seconds)
    }

    @Test("a damaged state database: exit 73, one line saying what to do, the file untouched")
    func damagedStateDatabase() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.shutdown() }
        try sandbox.startStub()
        try createDatabases(sandbox)
        try fillStateDatabase(sandbox)
        try Self.overwritePage(3, of: Self.statePath(sandbox))
        let before = try Data(contentsOf: URL(fileURLWithPath: Self.statePath(sandbox)))

        let result = try runDaemon(sandbox)
        #expect(result.status == 73)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(Self.statePath(sandbox)))
        #expect(result.stderr.contains("damaged"))
        #expect(result.stderr.contains("restore it from a backup"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: Self.statePath(sandbox))) == before)
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path)
        #expect(!names.contains { $0.hasPrefix("state.sqlite3.") && $0 != "state.sqlite3.lock" }, "\(names)")
    }

    @Test("a half-truncated state database: exit 73 with the same one clear line, not a bare 73")
    func truncatedStateDatabase() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.shutdown() }
        try sandbox.startStub()
        try createDatabases(sandbox)
        try fillStateDatabase(sandbox)
        let path = Self.statePath(sandbox)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        #expect(size > 8 * Self.pageSize)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(size / 2))
        try handle.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let result = try runDaemon(sandbox)
        #expect(result.status == 73)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("restore it from a backup"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a damaged cache database is moved aside, logged once and rebuilt; the daemon answers")
    func damagedCacheDatabase() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.shutdown() }
        try sandbox.startStub()
        try createDatabases(sandbox, search: true)
        try Self.overwritePage(2, of: sandbox.databasePath)

        try sandbox.startDaemon()
        let status = try sandbox.movies(["status", "--json"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("\"state\":\"ok\""), "\(status.stdout)")
        let search = try sandbox.movies(["search", "matrix"])
        #expect(search.status == 0, "\(search.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path)
        #expect(names.contains { $0.hasPrefix("cache.sqlite3.corrupt-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }, "\(names)")
        let log = sandbox.daemon?.stderr ?? ""
        #expect(log.components(separatedBy: "moved it to").count - 1 == 1, "\(log)")
    }

    @Test("another process's BEGIN EXCLUSIVE: a network answer within the deadline, stored: false (locked), Status says locked")
    func outsideLock() async throws {
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        let holder = try Self.holdLock(on: sandbox.databasePath, in: sandbox, name: "lock-holder")
        defer { _ = holder.stop() }

        // Unbounded, the save waited SQLite's 5 s and then failed silently; now the lock is waited
        // for a third of the answer deadline (DatabaseBusyTimeoutTests, SQLiteStorageFaultTests) and
        // the answer says it was not stored. No wall-clock assertion here: a loaded machine must not
        // fail it.
        let search = try sandbox.movies(["search", "matrix", "--json"])
        #expect(search.status == 0, "\(search.stderr)")
        #expect(search.stdout.contains("\"stored\":false"), "\(search.stdout)")
        #expect(search.stdout.contains("\"storageFault\":\"locked\""), "\(search.stdout)")
        let status = try sandbox.movies(["status", "--json"])
        #expect(status.stdout.contains("\"state\":\"locked\""), "\(status.stdout)")
        let text = try sandbox.movies(["search", "alien"])
        #expect(text.status == 0)
        #expect(text.stderr.contains("was not stored in moviesd's cache"), "\(text.stderr)")

        _ = holder.stop()
        let stored = try sandbox.movies(["search", "blade runner", "--json"])
        #expect(stored.status == 0)
        #expect(!stored.stdout.contains("\"stored\":false"), "\(stored.stdout)")
        let healthy = try sandbox.movies(["status", "--json"])
        #expect(healthy.stdout.contains("\"state\":\"ok\"}"), "\(healthy.stdout)")
        let log = sandbox.daemon?.stderr ?? ""
        #expect(log.components(separatedBy: "storage degraded").count - 1 == 1, "\(log)")
    }

    @Test("another process's lock on the state database: the edit fails with 74, later edits at once, Status and the journal (error) say so, and Status is ok again once it is released")
    func stateDatabaseLock() async throws {
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        #expect(try sandbox.movies(["watchlist", "add", "films", "--movie", "603"]).status == 0)
        let holder = try Self.holdLock(on: Self.statePath(sandbox), in: sandbox, name: "state-lock-holder")
        defer { _ = holder.stop() }

        for movie in ["550", "551"] {
            let edit = try sandbox.movies(["watchlist", "add", "films", "--movie", movie])
            #expect(edit.status == 74, "\(edit.stdout) \(edit.stderr)")
            #expect(edit.stderr.contains("lock"), "\(edit.stderr)")
        }
        let status = try sandbox.movies(["status", "--json"])
        #expect(status.stdout.contains("\"state\":\"locked\""), "\(status.stdout)")
        #expect(status.stdout.contains("the state database"), "\(status.stdout)")
        let log = sandbox.daemon?.stderr ?? ""
        #expect(log.contains("error: storage degraded while writing (state database)"), "\(log)")

        _ = holder.stop()
        // No write needed: the daemon looks once a second whether the lock is gone.
        #expect(BackgroundProcess.waitUntil { ((try? sandbox.movies(["status", "--json"]).stdout) ?? "").contains("\"state\":\"ok\"") })
        let saved = try sandbox.movies(["watchlist", "add", "films", "--movie", "552"])
        #expect(saved.status == 0, "\(saved.stderr)")
        let after = sandbox.daemon?.stderr ?? ""
        #expect(after.contains("storage recovered (the state database was locked)"), "\(after)")
    }

    @Test("the state database damaged while the daemon runs: the edit fails with 74 (damaged), Status says corrupt, one journal line at error")
    func stateDatabaseDamageAfterStart() async throws {
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        #expect(try sandbox.movies(["watchlist", "add", "films", "--movie", "603"]).status == 0)
        let checkpoint = try ProcessRunner.run(sqlite3, [Self.statePath(sandbox), "PRAGMA wal_checkpoint(TRUNCATE);"])
        #expect(checkpoint.status == 0, "\(checkpoint.stderr)")
        for page in 2...6 { try Self.overwritePage(page, of: Self.statePath(sandbox)) }

        for movie in ["550", "551"] {
            let edit = try sandbox.movies(["watchlist", "add", "films", "--movie", movie])
            #expect(edit.status == 74, "\(edit.stdout) \(edit.stderr)")
        }
        let status = try sandbox.movies(["status", "--json"])
        #expect(status.stdout.contains("\"state\":\"corrupt\""), "\(status.stdout)")
        let log = sandbox.daemon?.stderr ?? ""
        #expect(log.components(separatedBy: "storage degraded").count - 1 == 1, "\(log)")
        #expect(log.contains("error: storage degraded"), "\(log)")
    }

    @Test("a page damaged while the daemon runs: typed StorageFailure (exit 74, what to do), Status says corrupt, one journal line")
    func damageAfterStart() async throws {
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        for query in ["matrix", "alien", "blade runner"] {
            #expect(try sandbox.movies(["search", query]).status == 0)
        }
        // Everything into the main file, then garbage over the responses table's root page.
        let checkpoint = try ProcessRunner.run(sqlite3, [sandbox.databasePath, "PRAGMA wal_checkpoint(TRUNCATE);"])
        #expect(checkpoint.status == 0, "\(checkpoint.stderr)")
        try Self.overwritePage(2, of: sandbox.databasePath)

        let purge = try sandbox.movies(["cache", "purge", "--all"])
        #expect(purge.status == 74, "\(purge.stdout) \(purge.stderr)")
        #expect(purge.stderr.contains("damaged"), "\(purge.stderr)")
        #expect(!purge.stderr.contains("internal error"))
        #expect(!purge.stderr.contains("see the daemon's log"))
        let json = try sandbox.movies(["cache", "purge", "--all", "--json"])
        #expect(json.stdout.contains("\"error\":\"io.moviesd.Movies.StorageFailure\""), "\(json.stdout)")
        #expect(json.stdout.contains("\"fault\":\"corrupt\""), "\(json.stdout)")
        let status = try sandbox.movies(["status", "--json"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("\"state\":\"corrupt\""), "\(status.stdout)")
        let log = sandbox.daemon?.stderr ?? ""
        #expect(log.components(separatedBy: "storage degraded").count - 1 == 1, "\(log)")
        #expect(log.contains("error:"), "\(log)")

        // A restart moves the damaged cache aside and serves again.
        #expect(sandbox.daemon?.stop(signal: SIGTERM, timeout: ProcessDeadline.seconds) == 0)
        try? FileManager.default.removeItem(atPath: sandbox.socketPath)
        try sandbox.startDaemon()
        #expect(try sandbox.movies(["search", "matrix"]).status == 0)
        let healthy = try sandbox.movies(["status", "--json"])
        #expect(healthy.stdout.contains("\"state\":\"ok\"}"), "\(healthy.stdout)")
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path)
        #expect(names.contains { $0.hasPrefix("cache.sqlite3.corrupt-") }, "\(names)")
    }

    @Test("a second daemon with another cache file in the same directory refuses to share the state database")
    func sharedStateDatabaseRefused() async throws {
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        let second = try ProcessRunner.run(
            BinaryLocator.path("moviesd"),
            ["--socket", sandbox.directory.appendingPathComponent("other.sock").path,
             "--database", sandbox.directory.appendingPathComponent("other-cache.sqlite3").path],
            timeout: ProcessDeadline.seconds)
        #expect(second.status == 69, "\(second.stderr)")
        #expect(second.stderr.contains(Self.statePath(sandbox)), "\(second.stderr)")
        #expect(try sandbox.movies(["status"]).status == 0)
    }
}
