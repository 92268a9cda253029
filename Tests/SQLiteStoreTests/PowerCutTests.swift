import Foundation
import MoviesData
import MoviesDomain
import PowerCutVFS
import SystemSupport
import MoviesTestSupport
import Testing
@testable import SQLiteStore

/// The power goes out at random points while users make edits, and every edit that was
/// acknowledged (its storage call returned) is still there afterwards, in a database that passes
/// `PRAGMA integrity_check`.
///
/// The daemon's storage (`MoviesDatabases`, the watchlist repository, the account outbox and the
/// recent queries over SQLite) runs on a test VFS (`Tests/PowerCutVFS`) that keeps what each file
/// held at its last `fsync`; at the cut, every write since is thrown away or kept at random, as a
/// disk may have written some of its cache (SQLite's own crash tests model it so). Each round arms
/// the cut at a random tracked operation (a write, sync or truncation, the database's opening
/// included), makes edits until one fails (the power is off) or a random count is reached (then the
/// cut comes right after the last acknowledgement), closes everything, rewrites the files as the
/// disk holds them, and opens them again with the default VFS to check. Rounds follow one another
/// on the same files, so cuts also land in recovery, checkpoints and a WAL that restarts.
///
/// `MOVIESD_POWERCUT_CUTS` (default 300) and `MOVIESD_POWERCUT_SEED` choose the run; the summary
/// line says how many cuts and acknowledged edits it saw, and how many were lost.
@Suite(.serialized, .blocksThreads) struct PowerCutTests {
    static let vfsName = "moviesd-powercut"

    /// What the oracle expects: every acknowledged edit.
    struct Acknowledged {
        var watchlistMovies: [String: Set<Int>] = [:]
        var outbox: [Int64: AccountEdit] = [:]
        var lastRecentQuery: String?
        var count = 0
    }

    struct Tally: CustomStringConvertible {
        var cuts = 0
        var cutsDuringOpening = 0
        var cutsMidEdit = 0
        var acknowledged = 0
        var lost = 0
        var integrityFailures = 0
        var description: String {
            "power cuts: \(cuts) (\(cutsMidEdit) mid-edit, \(cutsDuringOpening) while opening), acknowledged edits: \(acknowledged), lost: \(lost), integrity failures: \(integrityFailures)"
        }
    }

    static let account = 22011

    @Test func everyAcknowledgedEditSurvivesAPowerCut() async throws {
        let environment = ProcessInfo.processInfo.environment
        let cuts = environment["MOVIESD_POWERCUT_CUTS"].flatMap(Int.init) ?? 300
        let seed = environment["MOVIESD_POWERCUT_SEED"].flatMap(UInt64.init) ?? 20_261_126
        // tmpfs when there is one: the VFS decides what a cut keeps, so a real fsync adds only time.
        let base = FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let directory = try Self.realPath(base) + "/moviesd-powercut-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(powercut_register(Self.vfsName, directory + "/") == 0)
        defer { powercut_forget() }

        var random = SeededRandomGenerator(seed: seed)
        var expected = Acknowledged()
        var tally = Tally()
        for round in 0..<cuts {
            powercut_forget()
            powercut_arm(Int64.random(in: 1...160, using: &random))
            let editLimit = Int.random(in: 0...24, using: &random)
            let opened = try? MoviesDatabases.open(
                cachePath: directory + "/cache.sqlite3", statePath: directory + "/state.sqlite3",
                options: MoviesDatabases.Options(integrityCheckTimeLimit: .seconds(30), cacheReaders: 1, vfs: Self.vfsName))
            if let databases = opened {
                let failed = await Self.makeEdits(limit: editLimit, round: round, databases: databases, expected: &expected, random: &random)
                if failed { tally.cutsMidEdit += 1 }
                powercut_cut()
                await databases.close()
            } else {
                #expect(powercut_has_cut() != 0, "the databases failed to open with the power on")
                tally.cutsDuringOpening += 1
            }
            let keep = Int32.random(in: 0...1000, using: &random)
            #expect(powercut_restore(random.next(), keep) == 0)
            tally.cuts += 1
            try await Self.check(directory: directory, expected: &expected, tally: &tally)
        }
        tally.acknowledged = expected.count
        print("PowerCutTests (seed \(seed)): \(tally)")
        #expect(tally.lost == 0, "\(tally)")
        #expect(tally.integrityFailures == 0, "\(tally)")
        #expect(tally.cutsMidEdit > cuts / 4, "most cuts should land among the edits: \(tally)")
        #expect(expected.count > cuts, "the rounds should acknowledge edits: \(tally)")
    }

    /// The control: the same cuts over a state database committing with `synchronous=NORMAL` (as
    /// before issue 27) lose acknowledged edits, so the test above would catch a regression.
    @Test func aStateDatabaseWithoutDurableCommitsLosesAcknowledgedEdits() async throws {
        let base = FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let directory = try Self.realPath(base) + "/moviesd-powercut-control-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(powercut_register(Self.vfsName, directory + "/") == 0)
        defer { powercut_forget() }
        let path = directory + "/state.sqlite3"
        var acknowledged: [Int] = []
        for round in 0..<20 {
            powercut_forget()
            let store = try SQLiteStore(
                path: path, readers: 1, migrator: SQLiteMigrator(migrations: StateSchema.migrations), durability: .consistent, vfs: Self.vfsName)
            let storage = SQLiteWatchlistStorage(store: store)
            for index in 0..<5 {
                let id = round * 10 + index + 1
                try await storage.save(Watchlist(name: "list-\(id)", movieIDs: [id]))
                acknowledged.append(id)
            }
            powercut_cut()
            await store.close()
            // The harshest disk: nothing written since the last sync survives.
            #expect(powercut_restore(UInt64(round), 0) == 0)
        }
        let store = try SQLiteStore(path: path, readers: 1, migrator: SQLiteMigrator(migrations: StateSchema.migrations))
        let names = Set(try await SQLiteWatchlistStorage(store: store).watchlists().map(\.name))
        #expect(try await store.integrityCheck() == "ok", "NORMAL loses commits, never consistency")
        await store.close()
        let lost = acknowledged.filter { !names.contains("list-\($0)") }.count
        print("PowerCutTests control (synchronous=NORMAL): \(acknowledged.count) acknowledged edits, \(lost) lost")
        #expect(lost > 0, "the harness must see what a power cut takes from a database that does not sync its commits")
    }

    /// Makes up to `limit` edits of the three kinds users make; returns whether one failed (the
    /// power went during it). Each edit that returned is recorded in `expected`.
    static func makeEdits(
        limit: Int, round: Int, databases: MoviesDatabases, expected: inout Acknowledged, random: inout SeededRandomGenerator
    ) async -> Bool {
        let watchlists = DefaultWatchlistRepository(
            storage: SQLiteWatchlistStorage(store: databases.state), responses: SQLiteResponseStorage(store: databases.cache))
        let account = SQLiteAccountStorage(store: databases.state)
        let recent = SQLiteRecentQueriesStorage(store: databases.state)
        let now = Date(timeIntervalSince1970: 1_800_000_000 + Double(round))
        for index in 0..<limit {
            let movieID = round * 100 + index + 1
            do {
                switch Int.random(in: 0..<3, using: &random) {
                case 0:
                    let name = "list-\(movieID % 3)"
                    _ = try await watchlists.add(to: name, owner: .system, queries: [], movieIDs: [movieID])
                    expected.watchlistMovies[name, default: []].insert(movieID)
                case 1:
                    let edit = try AccountEdit(movieID: movieID, change: .watchlist(true))
                    let entry = try await account.enqueue(edit, accountID: Self.account, at: now)
                    expected.outbox[entry.id] = edit
                default:
                    let text = "query \(movieID)"
                    guard let query = MovieQuery(text) else { continue }
                    try await recent.save(query, for: .root, at: now)
                    expected.lastRecentQuery = query.canonical
                }
                expected.count += 1
            } catch {
                return true
            }
        }
        return false
    }

    /// Opens the files as the disk holds them (default VFS) and counts what is missing; a lost edit
    /// is counted once (and expected no more).
    static func check(directory: String, expected: inout Acknowledged, tally: inout Tally) async throws {
        let databases = try MoviesDatabases.open(
            cachePath: directory + "/cache.sqlite3", statePath: directory + "/state.sqlite3",
            options: MoviesDatabases.Options(integrityCheckTimeLimit: .seconds(30), cacheReaders: 1))
        for store in [databases.state, databases.cache] where try await store.integrityCheck() != "ok" {
            tally.integrityFailures += 1
        }
        let lists = try await SQLiteWatchlistStorage(store: databases.state).watchlists()
        for (name, movies) in expected.watchlistMovies {
            let stored = Set(lists.first { $0.name == name }?.movieIDs ?? [])
            let missing = movies.subtracting(stored)
            tally.lost += missing.count
            expected.watchlistMovies[name] = movies.subtracting(missing)
        }
        let entries = try await SQLiteAccountStorage(store: databases.state).snapshot(accountID: Self.account).entries
        let stored = Dictionary(entries.map { ($0.id, $0.edit) }, uniquingKeysWith: { first, _ in first })
        let missing = expected.outbox.filter { stored[$0.key] != $0.value }
        tally.lost += missing.count
        for id in missing.keys { expected.outbox[id] = nil }
        if let last = expected.lastRecentQuery {
            // At most one save after it was made, and it may have reached the disk unacknowledged.
            let newest = try await SQLiteRecentQueriesStorage(store: databases.state).recentQueries(of: .root, maxCount: 2).map(\.canonical)
            if !newest.contains(last) {
                tally.lost += 1
                expected.lastRecentQuery = nil
            }
        }
        await databases.close()
    }

    static func realPath(_ path: String) throws -> String {
        guard let resolved = realpath(path, nil) else { throw CocoaError(.fileNoSuchFile) }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
