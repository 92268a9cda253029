import FoundationEssentials
import MoviesData
import MoviesDomain

/// `RefreshHistoryStorage` in the state database (state schema version 3): one row holding the
/// last refresh's summary as JSON. A row that no longer decodes reads as no refresh.
public final class SQLiteRefreshHistoryStorage: RefreshHistoryStorage {
    private let store: SQLiteStore

    /// Creates the storage over the state database.
    public init(store: SQLiteStore) {
        self.store = store
    }

    /// The last refresh recorded, if any.
    public func lastRefresh() async throws -> RefreshSummary? {
        let text = try await store.read { connection in try connection.text("SELECT summary FROM last_refresh WHERE id = 1") }
        guard let text else { return nil }
        return try? JSONDecoder().decode(RefreshSummary.self, from: Data(text.utf8))
    }

    /// Records `summary` as the last refresh.
    public func saveLastRefresh(_ summary: RefreshSummary) async throws {
        let text = String(decoding: try JSONEncoder().encode(summary), as: UTF8.self)
        try await store.write { connection in
            try connection.run("INSERT OR REPLACE INTO last_refresh (id, summary) VALUES (1, ?)", [.text(text)])
        }
    }
}
