import FoundationEssentials
import MoviesData
import MoviesDomain
import Synchronization

/// A `CatalogueStorage` in memory for tests: words match case-insensitively (the last one also as
/// a prefix), most popular first; staging and the swap as the port says.
public final class InMemoryCatalogue: CatalogueStorage {
    private struct State {
        var titles: [Int: CatalogueTitle] = [:]
        var staged: [Int: CatalogueTitle] = [:]
        var status = CatalogueStatus()
    }

    private let state = Mutex(State())

    /// A catalogue holding `titles`, imported at `importedAt` from the export of `exportDate`.
    public init(_ titles: [CatalogueTitle] = [], exportDate: String = "2026-03-05", importedAt: Double = 0) {
        state.withLock { state in
            state.titles = Dictionary(uniqueKeysWithValues: titles.map { ($0.id, $0) })
            state.status = CatalogueStatus(exportDate: titles.isEmpty ? nil : exportDate, titles: titles.count, importedAt: titles.isEmpty ? nil : Date(timeIntervalSince1970: importedAt))
        }
    }

    public func status() async throws -> CatalogueStatus { state.withLock { $0.status } }

    public func title(id: Int) async throws -> CatalogueTitle? { state.withLock { $0.titles[id] } }

    public func search(_ text: String, limit: Int, offset: Int) async throws -> CatalogueMatches {
        let words = text.lowercased().split(separator: " ").map(String.init)
        guard !words.isEmpty else { return CatalogueMatches(total: 0, titles: []) }
        let matching = state.withLock { $0.titles.values }.filter { title in
            let titleWords = title.title.lowercased().split(separator: " ").map(String.init)
            return words.enumerated().allSatisfy { index, word in
                index == words.count - 1 ? titleWords.contains { $0.hasPrefix(word) } : titleWords.contains(word)
            }
        }.sorted { $0.popularity != $1.popularity ? $0.popularity > $1.popularity : $0.id < $1.id }
        return CatalogueMatches(total: min(matching.count, CatalogueMatches.countLimit), titles: Array(matching.dropFirst(offset).prefix(limit)))
    }

    public func beginImport() async throws { state.withLock { $0.staged = [:] } }

    public func stage(_ titles: [CatalogueTitle]) async throws {
        state.withLock { state in for title in titles { state.staged[title.id] = title } }
    }

    public func commitImport(exportDate: String, importedAt: Double) async throws -> CatalogueImportSummary {
        try state.withLock { state in
            guard !state.staged.isEmpty else { throw CatalogueError(.unusable, "The export holds no title.") }
            let old = state.titles, new = state.staged
            let added = new.keys.filter { old[$0] == nil }.count
            let removed = old.keys.filter { new[$0] == nil }.count
            let retitled = new.filter { old[$0.key].map { $0.title } != nil && old[$0.key]?.title != $0.value.title }.count
            state.titles = new
            state.staged = [:]
            state.status = CatalogueStatus(exportDate: exportDate, titles: new.count, importedAt: Date(timeIntervalSince1970: importedAt))
            return CatalogueImportSummary(exportDate: exportDate, titles: new.count, added: added, removed: removed, retitled: retitled)
        }
    }

    public func abandonImport() async { state.withLock { $0.staged = [:] } }
}
