import FoundationEssentials
import MoviesData
import MoviesDomain

/// `RefreshHistoryStorage` in the state database (state schema version 6): one row per owner
/// holding the last refresh of their lists as JSON. A row that no longer decodes reads as no
/// refresh.
public final class SQLiteRefreshHistoryStorage: RefreshHistoryStorage {
    private let store: SQLiteStore

    /// Creates the storage over the state database.
    public init(store: SQLiteStore) {
        self.store = store
    }

    /// The last refresh of each owner's lists recorded, by owner.
    public func lastRefreshes() async throws -> [Owner: RefreshSummary] {
        let rows = try await store.read { connection in
            var rows: [(Int64, String)] = []
            let statement = try connection.prepare("SELECT owner, summary FROM last_refresh")
            while try statement.step() {
                if let text = statement.text(at: 1) { rows.append((statement.int64(at: 0), text)) }
            }
            return rows
        }
        var summaries: [Owner: RefreshSummary] = [:]
        for (stored, text) in rows {
            guard let owner = Owner(storedID: stored), let summary = try? JSONDecoder().decode(RefreshSummary.self, from: Data(text.utf8)) else { continue }
            summaries[owner] = summary
        }
        return summaries
    }

    /// Records `summary` as the last refresh of `owner`'s lists.
    public func saveLastRefresh(_ summary: RefreshSummary, of owner: Owner) async throws {
        let text = String(decoding: try JSONEncoder().encode(summary), as: UTF8.self)
        try await store.write { connection in
            try connection.run("INSERT OR REPLACE INTO last_refresh (owner, summary) VALUES (?, ?)", [owner.storedValue, .text(text)])
        }
    }
}
