#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MoviesData
import MoviesDomain

/// The catalogue in its own SQLite database (`CatalogueSchema`), the `CatalogueStorage` adapter.
///
/// Searches and lookups read on the store's read-only connections (WAL: an import under way never
/// blocks them, and they see the catalogue as of the last committed swap). Staging writes the
/// import in batches of small transactions into a file of its own (`incomingPath`, attached to
/// the writer as `incoming` while an import runs, deleted after it, and at the next start if a
/// stop cut it short); the swap (`SQLiteCatalogue+Swap.swift`) is one transaction.
public final class SQLiteCatalogue: CatalogueStorage {
    /// The database.
    public let store: SQLiteStore

    /// Opens (creating and migrating) the catalogue at `path`.
    public init(path: String, readers: Int = 2) throws {
        incomingPath = path + "-incoming"
        Self.removeFiles(of: incomingPath)
        store = try SQLiteStore(
            path: path, readers: readers, migrator: SQLiteMigrator(migrations: CatalogueSchema.migrations), durability: .consistent)
    }

    /// The staging database's file.
    let incomingPath: String

    /// Removes a database file and its journals.
    static func removeFiles(of path: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path + suffix) }
    }

    /// Limits the file to `pages` pages (`PRAGMA max_page_count`): a write past it fails as on a
    /// full disk. For tests.
    public func limitSize(pages: Int) async throws {
        try await store.writeOutsideTransaction { connection in _ = try connection.integer("PRAGMA max_page_count = \(pages)") }
    }

    /// What the catalogue holds: the last import's day, titles and time (one row), and the
    /// file's and its WAL's size.
    public func status() async throws -> CatalogueStatus {
        let path = store.path
        return try await store.read { connection in
            let statement = try connection.prepare("SELECT export_date, titles, imported_at FROM catalogue_import WHERE singleton = 1")
            var status = CatalogueStatus()
            if try statement.step() {
                status.exportDate = statement.text(at: 0)
                status.titles = Int(statement.int64(at: 1))
                status.importedAt = Date(timeIntervalSince1970: statement.double(at: 2))
            }
            status.bytesOnDisk = Self.fileSize(path) + Self.fileSize(path + "-wal")
            return status
        }
    }

    /// The title with TMDB id `id` (a primary-key read), `nil` when the catalogue has none.
    public func title(id: Int) async throws -> CatalogueTitle? {
        try await store.read { connection in
            let statement = try connection.prepare("SELECT title, popularity FROM catalogue_title WHERE id = ?", [.int(id)])
            guard try statement.step() else { return nil }
            return CatalogueTitle(id: id, title: statement.text(at: 0) ?? "", popularity: statement.double(at: 1))
        }
    }

    /// Titles matching `text` (`CatalogueText.matchExpression`), most popular first; see
    /// `search(_:limit:offset:in:)` for how.
    public func search(_ text: String, limit: Int, offset: Int) async throws -> CatalogueMatches {
        guard let expression = CatalogueText.matchExpression(text), limit > 0 else { return CatalogueMatches(total: 0, titles: []) }
        return try await store.read { connection in
            try Self.search(expression, limit: limit, offset: max(0, offset), in: connection)
        }
    }

    /// Reads matches in row order (popularity bucket, most popular first) and counts them up to
    /// `CatalogueMatches.countLimit`; the titles wanted are ordered by their exact popularity.
    ///
    /// A row's bucket is within `CatalogueText.tolerance` (T) of its popularity's. If the
    /// `offset + limit`th match in row order is in bucket L, every one of the first matches has
    /// its popularity's bucket at most L + T, and a row in bucket L + 2T + 1 or later has its
    /// popularity's bucket at least L + T + 1: less popular than all of them. So the candidates
    /// are the rows up to bucket L + 2T.
    static func search(_ expression: String, limit: Int, offset: Int, in connection: SQLiteConnection) throws -> CatalogueMatches {
        let wanted = offset + limit
        let rows = try connection.prepare(
            "SELECT rowid FROM catalogue_text WHERE catalogue_text MATCH ? ORDER BY rowid LIMIT ?",
            [.text(expression), .int(CatalogueMatches.countLimit)])
        var candidates: [Int64] = []
        var total = 0
        var lastBucket = Int.max
        while try rows.step() {
            let rowid = rows.int64(at: 0)
            total += 1
            if candidates.count < wanted {
                candidates.append(rowid)
                if candidates.count == wanted { lastBucket = CatalogueText.bucket(ofRow: rowid) }
            } else if CatalogueText.bucket(ofRow: rowid) <= lastBucket + 2 * CatalogueText.tolerance {
                candidates.append(rowid)
            }
        }
        // The candidates' titles in one statement: SQLite looks each id up by its primary key.
        var titles: [CatalogueTitle] = []
        titles.reserveCapacity(candidates.count)
        if !candidates.isEmpty {
            let ids = "[" + candidates.map { String(CatalogueText.id(ofRow: $0)) }.joined(separator: ",") + "]"
            let rows = try connection.prepare(
                "SELECT t.id, t.title, t.popularity FROM json_each(?) AS c JOIN catalogue_title AS t ON t.id = c.value", [.text(ids)])
            while try rows.step() {
                titles.append(CatalogueTitle(id: Int(rows.int64(at: 0)), title: rows.text(at: 1) ?? "", popularity: rows.double(at: 2)))
            }
        }
        titles.sort { $0.popularity != $1.popularity ? $0.popularity > $1.popularity : $0.id < $1.id }
        return CatalogueMatches(total: total, titles: Array(titles.dropFirst(offset).prefix(limit)))
    }

    /// Starts an import: the staging file of an earlier, unfinished one is deleted, a new one
    /// attached to the writer as `incoming`.
    public func beginImport() async throws {
        let incomingPath = incomingPath
        do {
            try await store.writeOutsideTransaction { connection in
                try? connection.execute("DETACH DATABASE incoming")
                Self.removeFiles(of: incomingPath)
                try connection.run("ATTACH DATABASE ? AS incoming", [.text(incomingPath)])
                // Nothing in it needs to survive a crash: a cut-short import starts over.
                try connection.execute("PRAGMA incoming.synchronous = OFF; PRAGMA incoming.journal_mode = OFF;")
                try connection.execute(CatalogueSchema.incoming)
            }
        } catch {
            throw Self.catalogueError(error)
        }
    }

    /// Stages `titles` in the staging file, in one transaction (a full disk: `.diskFull`).
    public func stage(_ titles: [CatalogueTitle]) async throws {
        guard !titles.isEmpty else { return }
        do {
            try await write(titles)
        } catch {
            throw Self.catalogueError(error)
        }
    }

    private func write(_ titles: [CatalogueTitle]) async throws {
        try await store.write { connection in
            for title in titles {
                _ = try connection.run(
                    "INSERT OR REPLACE INTO incoming.catalogue_incoming(id, title, popularity, rank_key) VALUES (?, ?, ?, ?)",
                    [.int(title.id), .text(title.title), .real(title.popularity), .integer(CatalogueText.rowid(id: title.id, popularity: title.popularity))])
            }
        }
    }

    /// Deletes what is staged; the catalogue is unchanged.
    public func abandonImport() async {
        await endImport()
    }

    /// Detaches and deletes the staging database, and empties the WAL (`wal_checkpoint(TRUNCATE)`,
    /// which waits for readers: the catalogue's disk is back to its file alone).
    func endImport() async {
        let incomingPath = incomingPath
        try? await store.writeOutsideTransaction { connection in
            try? connection.execute("DETACH DATABASE incoming")
            Self.removeFiles(of: incomingPath)
            _ = try? connection.integer("PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    static func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}
