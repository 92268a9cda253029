import FoundationEssentials
import MoviesData
import MoviesDomain
import Testing
@testable import SQLiteStore

/// The last refresh in the state database: `Status` says when it ran across restarts.
@Suite struct SQLiteRefreshHistoryStorageTests {
    @Test func theLastRefreshIsKeptAcrossAReopenAndReplacedByTheNext() async throws {
        try await TemporaryDatabase.with { database in
            let open = { try SQLiteStore(path: database.path, readers: 1, migrator: SQLiteMigrator(migrations: StateSchema.migrations)) }
            let store = try open()
            #expect(try await SQLiteRefreshHistoryStorage(store: store).lastRefresh() == nil)
            let first = RefreshSummary(done: 3, failed: 1, skipped: 0, durationSeconds: 2.5, finishedAt: Date(timeIntervalSince1970: 1_800_000_000), firstError: "TMDB is unreachable", current: 7, changed: 2)
            try await SQLiteRefreshHistoryStorage(store: store).saveLastRefresh(first)
            await store.close()

            let reopened = try open()
            let storage = SQLiteRefreshHistoryStorage(store: reopened)
            #expect(try await storage.lastRefresh() == first)
            let second = RefreshSummary(done: 0, failed: 0, skipped: 0, durationSeconds: 0.1, finishedAt: Date(timeIntervalSince1970: 1_800_086_400), current: 10)
            try await storage.saveLastRefresh(second)
            #expect(try await storage.lastRefresh() == second)
            await reopened.close()
        }
    }
}
