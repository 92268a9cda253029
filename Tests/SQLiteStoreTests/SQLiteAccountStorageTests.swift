import FoundationEssentials
import MoviesData
import MoviesDomain
import Testing
@testable import SQLiteStore

/// The account's outbox and pulled lists in the state database: one transaction per change,
/// compaction, deliveries with TMDB's side effect, confirmation by a pull, and survival across a
/// reopen and the migration from state schema 1.
@Suite struct SQLiteAccountStorageTests {
    static let account = 22011
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func open(_ database: TemporaryDatabase) throws -> SQLiteStore {
        try SQLiteStore(path: database.path, readers: 1, migrator: SQLiteMigrator(migrations: StateSchema.migrations))
    }

    static func edit(_ id: Int, _ change: AccountEdit.Change) throws -> AccountEdit {
        try AccountEdit(movieID: id, change: change)
    }

    @Test func aNewerEditOfTheSameListAndMovieSupersedesTheWaitingOne() async throws {
        try await TemporaryDatabase.with { database in
            let store = try Self.open(database)
            let storage = SQLiteAccountStorage(store: store)
            _ = try await storage.enqueue(Self.edit(603, .watchlist(true)), accountID: Self.account, at: Self.start)
            _ = try await storage.enqueue(Self.edit(603, .favorite(true)), accountID: Self.account, at: Self.start)
            let last = try await storage.enqueue(Self.edit(603, .watchlist(false)), accountID: Self.account, at: Self.start)
            let entries = try await storage.snapshot(accountID: Self.account).entries
            #expect(entries.map(\.edit) == [try Self.edit(603, .favorite(true)), try Self.edit(603, .watchlist(false))])
            #expect(entries.last?.id == last.id)
            #expect(try await storage.snapshot(accountID: 1).entries.isEmpty, "another account's outbox is separate")
            await store.close()
        }
    }

    @Test func aDeliveryChangesThePulledListsWithTMDBsSideEffect() async throws {
        try await TemporaryDatabase.with { database in
            let store = try Self.open(database)
            let storage = SQLiteAccountStorage(store: store)
            _ = try await storage.replaceLists(
                [.watchlist: [AccountItem(movieID: 603, title: "The Matrix", releaseDate: "1999-03-30"), AccountItem(movieID: 550)]],
                accountID: Self.account, pulledAt: Self.start, expired: [])
            let rate = try await storage.enqueue(Self.edit(603, .rating(9)), accountID: Self.account, at: Self.start)
            try await storage.markDelivered(rate.id, edit: rate.edit, accountID: Self.account, at: Self.start)
            let snapshot = try await storage.snapshot(accountID: Self.account)
            #expect(snapshot.lists[.watchlist]?.map(\.movieID) == [550])
            #expect(snapshot.lists[.rated]?.map(\.movieID) == [603])
            #expect(snapshot.lists[.rated]?.first?.rating == 9)
            #expect(snapshot.lists[.rated]?.first?.title == "The Matrix", "the title moves with the movie")
            #expect(snapshot.entries.map(\.state) == [.delivered])
            #expect(snapshot.lastSuccessAt == Self.start)
            await store.close()
        }
    }

    @Test func aPullConfirmsDeliveredEditsItShowsAndKeepsTheOthersUntilTheGraceEnds() async throws {
        try await TemporaryDatabase.with { database in
            let store = try Self.open(database)
            let storage = SQLiteAccountStorage(store: store)
            let shown = try await storage.enqueue(Self.edit(1, .watchlist(true)), accountID: Self.account, at: Self.start)
            let lagging = try await storage.enqueue(Self.edit(2, .favorite(true)), accountID: Self.account, at: Self.start)
            let waiting = try await storage.enqueue(Self.edit(3, .favorite(true)), accountID: Self.account, at: Self.start)
            try await storage.markDelivered(shown.id, edit: shown.edit, accountID: Self.account, at: Self.start)
            try await storage.markDelivered(lagging.id, edit: lagging.edit, accountID: Self.account, at: Self.start)
            let confirmed = try await storage.replaceLists(
                [.watchlist: [AccountItem(movieID: 1)]], accountID: Self.account, pulledAt: Self.start.addingTimeInterval(1), expired: [])
            #expect(confirmed == 1)
            var snapshot = try await storage.snapshot(accountID: Self.account)
            #expect(snapshot.entries.map(\.id) == [lagging.id, waiting.id])
            #expect(snapshot.pulledAt == Self.start.addingTimeInterval(1))
            // The pulled lists do not have 2 yet; what the user sees still does.
            #expect(AccountOverlay.view(of: snapshot.lists, with: snapshot.entries)[.favorite]?.map(\.movieID) == [2, 3])
            #expect(snapshot.entries.first?.settledAt == Self.start, "when TMDB took it, for the grace after a restart")
            _ = try await storage.replaceLists([:], accountID: Self.account, pulledAt: Self.start.addingTimeInterval(700), expired: [lagging.id, waiting.id])
            snapshot = try await storage.snapshot(accountID: Self.account)
            #expect(snapshot.entries.map(\.id) == [waiting.id], "after the grace TMDB's lists win; waiting edits stay, even when named")
            await store.close()
        }
    }

    @Test func failuresRejectionsAndDismissal() async throws {
        try await TemporaryDatabase.with { database in
            let store = try Self.open(database)
            let storage = SQLiteAccountStorage(store: store)
            let entry = try await storage.enqueue(Self.edit(5, .watchlist(true)), accountID: Self.account, at: Self.start)
            let refused = try await storage.enqueue(Self.edit(6, .watchlist(true)), accountID: Self.account, at: Self.start)
            try await storage.markFailed(entry.id, error: "TMDB answered HTTP 500", nextAttemptAt: Self.start.addingTimeInterval(4))
            try await storage.reject(refused.id, reason: "TMDB answered HTTP 404, code 34", at: Self.start)
            var entries = try await storage.snapshot(accountID: Self.account).entries
            #expect(entries[0].attempts == 1)
            #expect(entries[0].nextAttemptAt == Self.start.addingTimeInterval(4))
            #expect(entries[1].state == .rejected)
            #expect(AccountOverlay.view(of: [:], with: entries)[.watchlist]?.map(\.movieID) == [5], "a rejected edit no longer applies")
            try await storage.makeDue(accountID: Self.account)
            entries = try await storage.snapshot(accountID: Self.account).entries
            #expect(entries[0].nextAttemptAt == nil)
            #expect(try await storage.dismissRejected(accountID: Self.account) == 1)
            #expect(try await storage.snapshot(accountID: Self.account).entries.map(\.id) == [entry.id])
            await store.close()
        }
    }

    @Test func theOutboxSummaryCountsWhatTheSnapshotHolds() async throws {
        try await TemporaryDatabase.with { database in
            let store = try Self.open(database)
            let storage = SQLiteAccountStorage(store: store)
            for id in 1...5 { _ = try await storage.enqueue(Self.edit(id, .watchlist(true)), accountID: Self.account, at: Self.start) }
            let delivered = try await storage.enqueue(Self.edit(6, .favorite(true)), accountID: Self.account, at: Self.start)
            try await storage.markDelivered(delivered.id, edit: Self.edit(6, .favorite(true)), accountID: Self.account, at: Self.start)
            let refused = try await storage.enqueue(Self.edit(7, .favorite(true)), accountID: Self.account, at: Self.start)
            try await storage.reject(refused.id, reason: "TMDB answered HTTP 404, code 34", at: Self.start)
            try await storage.recordSync(accountID: Self.account, username: "ada", succeededAt: Self.start, error: "HTTP 500")
            // Another account's entry is not counted.
            _ = try await storage.enqueue(Self.edit(8, .watchlist(true)), accountID: Self.account + 1, at: Self.start)

            let summary = try await storage.outboxSummary(accountID: Self.account)
            #expect((summary.pending, summary.delivered, summary.rejected) == (5, 1, 1))
            #expect(summary.username == "ada")
            #expect(summary.lastSuccessAt == Self.start)
            #expect(summary.lastError == "HTTP 500")
            // The same as the protocol's default, counted from the whole snapshot.
            let snapshot = try await storage.snapshot(accountID: Self.account)
            #expect(summary.pending == snapshot.entries.count { $0.state == .pending })
            #expect(summary.delivered == snapshot.entries.count { $0.state == .delivered })
            #expect(summary.rejected == snapshot.entries.count { $0.state == .rejected })
            #expect(summary.pulledAt == snapshot.pulledAt)
            await store.close()
        }
    }

    @Test func theOutboxSurvivesAReopen() async throws {
        try await TemporaryDatabase.with { database in
            var store = try Self.open(database)
            _ = try await SQLiteAccountStorage(store: store).enqueue(Self.edit(7, .rating(7.5)), accountID: Self.account, at: Self.start)
            try await SQLiteAccountStorage(store: store).recordSync(accountID: Self.account, username: "stub-user", succeededAt: nil, error: nil)
            await store.close()
            store = try Self.open(database)
            let storage = SQLiteAccountStorage(store: store)
            let snapshot = try await storage.snapshot(accountID: Self.account)
            #expect(snapshot.entries.map(\.edit) == [try Self.edit(7, .rating(7.5))])
            #expect(snapshot.username == "stub-user")
            #expect(try await storage.lastAccount()?.id == Self.account)
            await store.close()
        }
    }

    @Test func aStateDatabaseOfSchemaOneKeepsItsWatchlistsAndGainsTheOutbox() async throws {
        try await TemporaryDatabase.with { database in
            var store = try SQLiteStore(path: database.path, readers: 1, migrator: SQLiteMigrator(migrations: [StateSchema.version1]))
            try await store.write { connection in
                try connection.run("INSERT INTO watchlists (name) VALUES ('noir')")
                try connection.run("INSERT INTO watchlist_movies (watchlist, position, movie_id) VALUES ('noir', 0, 603)")
            }
            await store.close()
            store = try Self.open(database)
            #expect(try await SQLiteWatchlistStorage(store: store).watchlists().map(\.movieIDs) == [[603]])
            _ = try await SQLiteAccountStorage(store: store).enqueue(Self.edit(603, .favorite(true)), accountID: Self.account, at: Self.start)
            #expect(try await SQLiteAccountStorage(store: store).snapshot(accountID: Self.account).entries.count == 1)
            #expect(try await store.integrityCheck() == "ok")
            await store.close()
        }
    }
}
