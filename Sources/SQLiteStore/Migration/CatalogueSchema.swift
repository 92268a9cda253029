/// The catalogue database's schema (`catalogue.sqlite3`, beside the cache): TMDB's daily ID export
/// imported, searchable, and the staging table an import fills before it is swapped in.
///
/// A file of its own rather than a cache migration: an import's swap is one long write
/// transaction (seconds for a first import of a million titles), and in the cache it would hold
/// the one writer every fetched page waits for; a damaged catalogue is rebuilt from TMDB without
/// touching the cache. Versioned like the others (`PRAGMA user_version`).
///
/// - `catalogue_title`: one row per title; `rank_key` is the title's row in `catalogue_text`
///   (`CatalogueText.rowid`: popularity bucket, then id), so the search reads matches in
///   popularity order and stops early.
/// - `catalogue_text`: contentless FTS5 (`content=''`) over the title as `CatalogueText.indexed`
///   writes it (a CJK character is a word of its own); `prefix='2 3'` for typed-ahead prefixes;
///   `columnsize=0`, as matches are ranked by popularity, not bm25.
/// - `catalogue_import`: the last import (one row).
///
/// The import under way is staged in another file (`CatalogueSchema.incoming`), attached while
/// it runs and deleted after: its pages never stay in the catalogue's file.
enum CatalogueSchema {
    static let migrations: [SQLiteMigration] = [
        SQLiteMigration(version: 1, name: "catalogue", sql: """
            CREATE TABLE catalogue_title(
                id INTEGER PRIMARY KEY,
                title TEXT NOT NULL,
                popularity REAL NOT NULL,
                rank_key INTEGER NOT NULL
            );
            CREATE VIRTUAL TABLE catalogue_text USING fts5(
                title, content='', tokenize='unicode61 remove_diacritics 2', prefix='2 3', columnsize=0
            );
            CREATE TABLE catalogue_import(
                singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
                export_date TEXT NOT NULL,
                titles INTEGER NOT NULL,
                imported_at REAL NOT NULL
            );
            """),
    ]

    /// The staging database's table, created in the file attached as `incoming`.
    static let incoming = """
        CREATE TABLE incoming.catalogue_incoming(
            id INTEGER PRIMARY KEY,
            title TEXT NOT NULL,
            popularity REAL NOT NULL,
            rank_key INTEGER NOT NULL
        );
        """
}
