/// Port: the catalogue of every movie in TMDB's daily ID export, for `Status` and
/// `UpdateCatalogue`. Adapter: `CatalogueUpdater` (MoviesData).
public protocol CatalogueRepository: Sendable {
    /// What the catalogue holds.
    func status() async throws -> CatalogueStatus
    /// Downloads the newest export and imports it now; throws `CatalogueError`, the catalogue of
    /// before whole.
    func update() async throws -> CatalogueImportSummary
}
