#if canImport(Glibc)
import Glibc
#endif
import MoviesDomain

/// The daemon's two databases, opened together: the state database (`state.sqlite3`: watchlists and
/// recent queries, what users made) and the cache database (`cache.sqlite3`: responses and posters,
/// all of which TMDB can give again).
///
/// Opening moves the user data of an old single-file database into the state database first
/// (`LegacyDatabaseSplit`), then checks each existing file with a time-bounded
/// `PRAGMA quick_check`. A damaged cache is moved aside (`cache.sqlite3.corrupt-<UTC time>`, with
/// its `-wal` and `-shm`) and rebuilt empty; a damaged state database stops the opening with one
/// line saying what to do, and is never moved, changed or deleted.
///
/// A commit to the state database is on disk when it returns (`SQLiteDurability.durable`): an edit
/// acknowledged to a user survives a power cut. A commit to the cache database is only consistent
/// (`.consistent`): after a power cut the last pages cached may be gone, fetched again when asked.
public struct MoviesDatabases: Sendable {
    /// The cache database.
    public let cache: SQLiteStore
    /// The state database.
    public let state: SQLiteStore

    /// How the databases are opened.
    public struct Options: Sendable {
        /// How long a connection waits for a lock held by another process.
        public var busyTimeoutMilliseconds: Int32
        /// The longest each start-up integrity check may take; a check cut short counts as passed.
        public var integrityCheckTimeLimit: Duration
        /// Read-only connections of the cache database.
        public var cacheReaders: Int
        /// The registered SQLite VFS both databases are opened with; `nil` for the default (the
        /// power-cut tests register one that simulates a cut).
        public var vfs: String?

        /// Creates options.
        public init(busyTimeoutMilliseconds: Int32 = 5000, integrityCheckTimeLimit: Duration = .seconds(2), cacheReaders: Int = 4, vfs: String? = nil) {
            self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
            self.integrityCheckTimeLimit = integrityCheckTimeLimit
            self.cacheReaders = cacheReaders
            self.vfs = vfs
        }
    }

    /// Something opening did that the journal should say.
    public enum Event: Sendable, Hashable {
        /// Recent queries and watchlists were moved from the old single file into the state database.
        case movedUserData(from: String, to: String)
        /// The cache database was damaged: moved to `movedTo` and rebuilt empty.
        case cacheQuarantined(path: String, movedTo: String, reason: String)
        /// The integrity check of `path` ran out of time before it finished.
        case integrityCheckIncomplete(path: String)
    }

    /// Opens (creating, migrating and checking) the state database at `statePath` and the cache
    /// database at `cachePath`; reports what it did through `report`.
    /// - Parameter now: the time written into a quarantined cache's name.
    public static func open(
        cachePath: String, statePath: String, options: Options = Options(), now: @Sendable () -> Double = { Double(time(nil)) },
        report: (Event) -> Void = { _ in }
    ) throws(DatabaseOpenError) -> MoviesDatabases {
        do {
            if try LegacyDatabaseSplit.moveUserData(from: cachePath, to: statePath, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds) {
                report(.movedUserData(from: cachePath, to: statePath))
            }
        } catch {
            throw stateFailure(path: cachePath, error, what: "the database \(cachePath) of an older moviesd (it holds your watchlists and recent queries)", hint: "move it aside to start with a new cache and no watchlists")
        }
        let state: SQLiteStore
        do {
            state = try openChecked(path: statePath, migrations: StateSchema.migrations, readers: 2, durability: .durable, options: options, report: report)
        } catch {
            throw stateFailure(path: statePath, error, what: "the state database \(statePath) (watchlists and recent queries)", hint: "move it aside to start with no watchlists")
        }
        let cache: SQLiteStore
        do {
            cache = try openCache(path: cachePath, options: options, now: now, report: report)
        } catch {
            throw DatabaseOpenError(.cacheUnusable, "moviesd: cannot open the cache database \(cachePath): \(error)")
        }
        return MoviesDatabases(cache: cache, state: state)
    }

    /// Closes both databases.
    public func close() async {
        await cache.close()
        await state.close()
    }

    /// The cache, moved aside and rebuilt once if damaged.
    private static func openCache(path: String, options: Options, now: () -> Double, report: (Event) -> Void) throws -> SQLiteStore {
        do {
            return try openChecked(path: path, migrations: StoreSchema.cacheMigrations, readers: options.cacheReaders, durability: .consistent, options: options, report: report)
        } catch let error where isDamage(error) {
            let movedTo = try quarantine(path, at: now())
            report(.cacheQuarantined(path: path, movedTo: movedTo, reason: Self.detail(of: error)))
            return try openChecked(path: path, migrations: StoreSchema.cacheMigrations, readers: options.cacheReaders, durability: .consistent, options: options, report: report)
        }
    }

    /// Checks an existing file (bounded `quick_check`), then opens and migrates it.
    private static func openChecked(
        path: String, migrations: [SQLiteMigration], readers: Int, durability: SQLiteDurability, options: Options, report: (Event) -> Void
    ) throws -> SQLiteStore {
        if access(path, F_OK) == 0 {
            let connection = try SQLiteConnection(path: path, mode: .readWrite, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds, vfs: options.vfs)
            defer { connection.close() }
            switch try connection.quickCheck(maxProblems: 3, timeLimit: options.integrityCheckTimeLimit) {
            case .ok: break
            case .incomplete: report(.integrityCheckIncomplete(path: path))
            case .problems(let problems): throw IntegrityProblems(problems: problems)
            }
        }
        return try SQLiteStore(
            path: path, readers: readers, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds,
            migrator: SQLiteMigrator(migrations: migrations), durability: durability, vfs: options.vfs)
    }

    /// Whether `error` says the file is damaged (rather than locked, unreadable or too new).
    static func isDamage(_ error: any Error) -> Bool {
        error is IntegrityProblems || (error as? SQLiteError)?.storageFault == .corrupt
    }

    private static func detail(of error: any Error) -> String {
        if let problems = error as? IntegrityProblems { return problems.description }
        if let error = error as? SQLiteError { return error.storageDetail }
        return "\(error)"
    }

    private static func stateFailure(path: String, _ error: any Error, what: String, hint: String) -> DatabaseOpenError {
        guard isDamage(error) else {
            return DatabaseOpenError(.stateUnusable, "moviesd: cannot open \(what): \(error)")
        }
        return DatabaseOpenError(.stateDamaged, "moviesd: \(what) is damaged (\(detail(of: error))); moviesd left it untouched: restore it from a backup, or \(hint) (mv '\(path)' '\(path).damaged')")
    }

    /// Renames `path` and its `-wal` and `-shm` to `<path>.corrupt-<UTC time>[-wal|-shm]`.
    /// - Returns: the new name of the database file.
    static func quarantine(_ path: String, at seconds: Double) throws -> String {
        var stamp = time_t(seconds)
        var parts = tm()
        gmtime_r(&stamp, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let length = strftime(&buffer, buffer.count, "%Y%m%dT%H%M%SZ", &parts)
        let suffix = ".corrupt-" + String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let target = path + suffix
        for extra in ["-wal", "-shm", ""] where access(path + extra, F_OK) == 0 {
            guard rename(path + extra, target + extra) == 0 else {
                let code = errno
                throw SQLiteError(reason: .sqlite, message: "cannot move the damaged '\(path + extra)' aside: \(String(cString: strerror(code)))")
            }
        }
        return target
    }
}

/// `PRAGMA quick_check` found problems.
struct IntegrityProblems: Error, CustomStringConvertible {
    let problems: [String]
    /// One line: SQLite's rows may hold line breaks ("*** in database main ***\n...").
    var description: String {
        "PRAGMA quick_check: " + problems.joined(separator: "; ").split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
