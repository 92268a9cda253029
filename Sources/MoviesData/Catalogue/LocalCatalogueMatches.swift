import FoundationEssentials
import MoviesDomain

/// The catalogue's part of a local search page: its matches come after every cached match, so
/// page `p` of the catalogue's list starts where the cached matches end. A cached movie is in the
/// catalogue too: on the page that lists it from the cache, the catalogue's copy is left out
/// (on another page it may show again, marked `catalogue`).
struct LocalCatalogueMatches {
    /// The catalogue's movies on the page, how many of its titles match in all, and when the
    /// catalogue was imported.
    var movies: [Movie]
    var total: Int
    var importedAt: Date?

    /// The catalogue's movies for page `page` of `pageSize`, after `cachedTotal` cached matches
    /// (`listed` of them on this page).
    static func page(
        of catalogue: any CatalogueStorage, text: String, page: Int, pageSize: Int, cachedTotal: Int, listed: [Movie]
    ) async throws -> LocalCatalogueMatches {
        let start = (page - 1) * pageSize
        let room = pageSize - listed.count
        let offset = max(0, start - cachedTotal)
        // As many more as cached movies listed here may drop.
        let matches = try await catalogue.search(text, limit: max(1, room + listed.count), offset: offset)
        guard matches.total > 0 else { return LocalCatalogueMatches(movies: [], total: 0, importedAt: nil) }
        let known = Set(listed.map(\.id))
        let movies = room <= 0 ? [] : matches.titles.filter { !known.contains($0.id) }.prefix(room).map { title in
            Movie(id: title.id, title: title.title, originalTitle: title.title, popularity: title.popularity, catalogue: true)
        }
        let importedAt = try await catalogue.status().importedAt
        return LocalCatalogueMatches(movies: Array(movies), total: matches.total, importedAt: importedAt)
    }
}
