import MoviesData
import MoviesDomain

extension SQLiteCatalogue {
    /// Swaps the staged titles in (`swap`, one transaction), then deletes the staging file and
    /// empties the WAL. Any failure leaves the catalogue as it was (SQLite's rollback) and throws
    /// a `CatalogueError` (a full disk: `.diskFull`).
    public func commitImport(exportDate: String, importedAt: Double) async throws -> CatalogueImportSummary {
        let summary: CatalogueImportSummary
        do {
            summary = try await store.write { connection in
                try Self.swap(exportDate: exportDate, importedAt: importedAt, in: connection)
            }
        } catch {
            await abandonImport()
            throw Self.catalogueError(error)
        }
        await endImport()
        return summary
    }

    /// The swap: one transaction that makes `catalogue_title` and `catalogue_text` what the
    /// staged `incoming.catalogue_incoming` holds, touching only what differs.
    /// Changed rows are listed in a TEMP table first, so no table is changed while it is read.
    static func swap(exportDate: String, importedAt: Double, in connection: SQLiteConnection) throws -> CatalogueImportSummary {
        let staged = try connection.integer("SELECT count(*) FROM incoming.catalogue_incoming") ?? 0
        guard staged > 0 else { throw CatalogueError(.unusable, "The export holds no title: the catalogue of before is kept.") }
        try connection.execute("""
            CREATE TEMP TABLE IF NOT EXISTS catalogue_change(id INTEGER PRIMARY KEY, title TEXT, rank_key INTEGER);
            DELETE FROM temp.catalogue_change;
            """)

        // Gone from the export.
        try connection.run("""
            INSERT INTO temp.catalogue_change(id, title, rank_key)
            SELECT id, title, rank_key FROM catalogue_title AS t
            WHERE NOT EXISTS (SELECT 1 FROM incoming.catalogue_incoming AS i WHERE i.id = t.id)
            """)
        let removed = try forEachChange(in: connection) { change in
            try unindex(rowid: change.int64(at: 2), title: change.text(at: 1) ?? "", in: connection)
        }
        try connection.run("DELETE FROM catalogue_title WHERE id IN (SELECT id FROM temp.catalogue_change)")

        // Retitled, or popularity moved beyond the tolerance (its row in the text index changes).
        try connection.execute("DELETE FROM temp.catalogue_change")
        try connection.run("""
            INSERT INTO temp.catalogue_change(id, title, rank_key)
            SELECT t.id, t.title, t.rank_key FROM catalogue_title AS t JOIN incoming.catalogue_incoming AS i ON i.id = t.id
            WHERE t.title <> i.title OR abs((t.rank_key >> 32) - (i.rank_key >> 32)) > ?
            """, [.int(CatalogueText.tolerance)])
        let retitled = try forEachChange(in: connection) { change in
            try unindex(rowid: change.int64(at: 2), title: change.text(at: 1) ?? "", in: connection)
        }
        try connection.run("""
            UPDATE catalogue_title SET title = i.title, popularity = i.popularity, rank_key = i.rank_key
            FROM incoming.catalogue_incoming AS i
            WHERE i.id = catalogue_title.id AND catalogue_title.id IN (SELECT id FROM temp.catalogue_change)
            """)
        try indexChanges(from: "temp.catalogue_change", in: connection)

        // Popularity alone (its row stays): the ranking's exact order.
        try connection.run("""
            UPDATE catalogue_title SET popularity = i.popularity FROM incoming.catalogue_incoming AS i
            WHERE i.id = catalogue_title.id AND catalogue_title.popularity <> i.popularity
            """)

        // New.
        try connection.execute("DELETE FROM temp.catalogue_change")
        try connection.run("""
            INSERT INTO temp.catalogue_change(id)
            SELECT id FROM incoming.catalogue_incoming AS i WHERE NOT EXISTS (SELECT 1 FROM catalogue_title AS t WHERE t.id = i.id)
            """)
        try connection.run("""
            INSERT INTO catalogue_title(id, title, popularity, rank_key)
            SELECT i.id, i.title, i.popularity, i.rank_key FROM incoming.catalogue_incoming AS i
            WHERE i.id IN (SELECT id FROM temp.catalogue_change)
            """)
        let added = try indexChanges(from: "temp.catalogue_change", in: connection)

        let titles = Int(try connection.integer("SELECT count(*) FROM catalogue_title") ?? 0)
        try connection.run(
            "INSERT OR REPLACE INTO catalogue_import(singleton, export_date, titles, imported_at) VALUES (1, ?, ?, ?)",
            [.text(exportDate), .int(titles), .real(importedAt)])
        try connection.execute("DELETE FROM temp.catalogue_change")
        return CatalogueImportSummary(exportDate: exportDate, titles: titles, added: added, removed: removed, retitled: retitled)
    }

    /// A database failure as the catalogue's error (a `CatalogueError` is passed on).
    static func catalogueError(_ error: any Error) -> any Error {
        guard let error = error as? SQLiteError else { return error }
        if error.storageFault == .full {
            return CatalogueError(.diskFull, "The disk is full: the catalogue of before is kept (\(error.storageDetail)).")
        }
        return CatalogueError(.storage, "The catalogue's database failed: \(error.storageDetail); the catalogue of before is kept.")
    }

    /// Calls `body` with each row (id, title, rank_key) of the TEMP change list; returns how many.
    private static func forEachChange(in connection: SQLiteConnection, _ body: (SQLiteStatement) throws -> Void) throws -> Int {
        let rows = try connection.prepare("SELECT id, title, rank_key FROM temp.catalogue_change")
        var count = 0
        while try rows.step() {
            try body(rows)
            count += 1
        }
        return count
    }

    /// Writes the text index rows of the titles listed in `list` as `catalogue_title` now holds them.
    @discardableResult
    private static func indexChanges(from list: String, in connection: SQLiteConnection) throws -> Int {
        let rows = try connection.prepare("""
            SELECT t.rank_key, t.title FROM \(list) AS c JOIN catalogue_title AS t ON t.id = c.id
            """)
        var count = 0
        while try rows.step() {
            try connection.run(
                "INSERT INTO catalogue_text(rowid, title) VALUES (?, ?)",
                [.integer(rows.int64(at: 0)), .text(CatalogueText.indexed(rows.text(at: 1) ?? ""))])
            count += 1
        }
        return count
    }

    /// Removes a row from the contentless text index: FTS5 needs the values it was given
    /// ("the 'delete' command … the values inserted must match", sqlite.org/fts5.html §6.7).
    private static func unindex(rowid: Int64, title: String, in connection: SQLiteConnection) throws {
        try connection.run(
            "INSERT INTO catalogue_text(catalogue_text, rowid, title) VALUES ('delete', ?, ?)",
            [.integer(rowid), .text(CatalogueText.indexed(title))])
    }
}
