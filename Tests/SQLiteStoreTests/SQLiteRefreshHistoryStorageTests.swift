import FoundationEssentials
import MoviesData
import MoviesDomain
import Testing
@testable import SQLiteStore

/// Each owner's last refresh in the state database: `Status` says when it ran across restarts,
/// and shows a caller only the refreshes of lists they may see (issue 31).
@Suite struct SQLiteRefreshHistoryStorageTests {
    static let alice = Owner.user(LocalUser(uid: 1001))
    static let first = RefreshSummary(
        done: 3, failed: 1, skipped: 0, durationSeconds: 2.5, finishedAt: Date(timeIntervalSince1970: 1_800_000_000), firstError: "TMDB is unreachable", current: 7, changed: 2)

    @Test func eachOwnersLastRefreshIsKeptAcrossAReopenAndReplacedByTheirNext() async throws {
        try await TemporaryDatabase.with { database in
            let open = { try SQLiteStore(path: database.path, readers: 1, migrator: SQLiteMigrator(migrations: StateSchema.migrations)) }
            let store = try open()
            #expect(try await SQLiteRefreshHistoryStorage(store: store).lastRefreshes().isEmpty)
            try await SQLiteRefreshHistoryStorage(store: store).saveLastRefresh(Self.first, of: .system)
            await store.close()

            let reopened = try open()
            let storage = SQLiteRefreshHistoryStorage(store: reopened)
            #expect(try await storage.lastRefreshes() == [.system: Self.first])
            let second = RefreshSummary(done: 0, failed: 0, skipped: 0, durationSeconds: 0.1, finishedAt: Date(timeIntervalSince1970: 1_800_086_400), current: 10)
            try await storage.saveLastRefresh(second, of: Self.alice)
            #expect(try await storage.lastRefreshes() == [.system: Self.first, Self.alice: second], "alice's refresh is hers; the system's stays")
            try await storage.saveLastRefresh(second, of: .system)
            #expect(try await storage.lastRefreshes() == [.system: second, Self.alice: second])
            await reopened.close()
        }
    }

    @Test("state schema 6: the one last refresh of before becomes the system's")
    func theLastRefreshOfBeforeBecomesTheSystems() async throws {
        try await TemporaryDatabase.with { database in
            let before = Array(StateSchema.migrations.prefix { $0.version < StateSchema.lastRefreshOwners.version })
            var store = try SQLiteStore(path: database.path, readers: 1, migrator: SQLiteMigrator(migrations: before))
            let text = String(decoding: try JSONEncoder().encode(Self.first), as: UTF8.self)
            try await store.write { connection in try connection.run("INSERT INTO last_refresh (id, summary) VALUES (1, ?)", [.text(text)]) }
            await store.close()
            store = try SQLiteStore(path: database.path, readers: 1, migrator: SQLiteMigrator(migrations: StateSchema.migrations))
            #expect(try await SQLiteRefreshHistoryStorage(store: store).lastRefreshes() == [.system: Self.first])
            #expect(try await store.integrityCheck() == "ok")
            await store.close()
        }
    }
}
