import MoviesDomain

/// Port: the catalogue of every movie in TMDB's daily ID export, kept apart from the cache.
///
/// An import is staged beside the current catalogue (`beginImport`, `stage` in batches) and
/// swapped in by `commitImport` in one transaction that applies only the difference; until then,
/// and whenever an import fails or is cut short, searches and lookups see the previous catalogue
/// whole. One import at a time (the caller, `CatalogueUpdater`, serialises them).
/// Adapters: `SQLiteCatalogue` (its own database file), `InMemoryCatalogue` for tests.
public protocol CatalogueStorage: Sendable {
    /// What the catalogue holds.
    func status() async throws -> CatalogueStatus
    /// The title with TMDB id `id`, `nil` when the catalogue has none.
    func title(id: Int) async throws -> CatalogueTitle?
    /// Titles matching `text` (words; the last word may be a prefix of 2 or more characters),
    /// most popular first.
    func search(_ text: String, limit: Int, offset: Int) async throws -> CatalogueMatches
    /// Starts an import: whatever an earlier, unfinished import left staged is discarded.
    func beginImport() async throws
    /// Stages titles of the import under way (a later title with the same id replaces an earlier).
    func stage(_ titles: [CatalogueTitle]) async throws
    /// Swaps the staged titles in, in one transaction: titles no longer in the export are
    /// removed, new ones added, changed titles and popularities updated.
    func commitImport(exportDate: String, importedAt: Double) async throws -> CatalogueImportSummary
    /// Discards what is staged (a failed import); the catalogue is unchanged.
    func abandonImport() async
}
