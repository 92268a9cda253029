import FoundationEssentials
import MoviesData
import MoviesDomain
import Testing
@testable import SQLiteStore

/// State schema version 5 (issue 31): what a state database of version 4 held becomes the
/// system's, nothing lost; afterwards each owner's rows are theirs alone.
@Suite struct StateOwnersMigrationTests {
    static let start = Date(timeIntervalSince1970: 1_767_225_600)
    static let alice = Owner.user(LocalUser(uid: 1001))
    static let bob = Owner.user(LocalUser(uid: 1002))

    static func open(_ database: TemporaryDatabase) throws -> SQLiteStore {
        try SQLiteStore(path: database.path, readers: 1, migrator: SQLiteMigrator(migrations: StateSchema.migrations))
    }

    @Test("a version 4 state database's watchlists and account become the system's, nothing lost")
    func version4RowsBecomeTheSystems() async throws {
        try await TemporaryDatabase.with { database in
            let before = Array(StateSchema.migrations.prefix { $0.version < 5 })
            var store = try SQLiteStore(path: database.path, readers: 1, migrator: SQLiteMigrator(migrations: before))
            try await store.write { connection in
                try connection.run("INSERT INTO watchlists (name) VALUES ('noir'), ('classics')")
                try connection.run("INSERT INTO watchlist_queries (watchlist, position, canonical, query, pages) VALUES ('noir', 0, 'zodiac', 'Zodiac', 2)")
                try connection.run("INSERT INTO watchlist_movies (watchlist, position, movie_id) VALUES ('noir', 0, 603), ('classics', 0, 11)")
                try connection.run("INSERT INTO account_outbox (account_id, list, movie_id, value, created_at) VALUES (22011, 'favorite', 550, 1, 10)")
                try connection.run("INSERT INTO account_items (account_id, list, movie_id, position, title) VALUES (22011, 'watchlist', 603, 0, 'The Matrix')")
                try connection.run("INSERT INTO account_sync (account_id, username, used_at) VALUES (22011, 'stub-user', 5)")
            }
            await store.close()
            store = try Self.open(database)
            #expect(try await store.read { try SQLiteMigrator.userVersion(of: $0) } == StateSchema.migrations.last?.version)
            let lists = try await SQLiteWatchlistStorage(store: store).watchlists()
            #expect(lists.map(\.name) == ["classics", "noir"])
            #expect(lists.allSatisfy { $0.owner == .system })
            #expect(lists[1].queries.map(\.query.query) == ["Zodiac"])
            #expect(lists[1].queries.map(\.pages) == [2])
            #expect(lists.map(\.movieIDs) == [[11], [603]])
            let system = try await SQLiteAccountStorage(store: store, owner: .system).snapshot(accountID: 22011)
            #expect(system.entries.map(\.edit.movieID) == [550])
            #expect(system.lists[.watchlist]?.map(\.movieID) == [603])
            #expect(system.username == "stub-user")
            #expect(try await SQLiteAccountStorage(store: store, owner: .system).lastAccount()?.id == 22011)
            // The session's rows are the admin group's, not anybody's own.
            let alice = try await SQLiteAccountStorage(store: store, owner: Self.alice).snapshot(accountID: 22011)
            #expect(alice.entries.isEmpty && alice.lists.isEmpty && alice.username == nil)
            #expect(try await SQLiteAccountStorage(store: store, owner: Self.alice).lastAccount() == nil)
            // A deleted list takes its entries with it (the foreign keys survived the rebuild).
            #expect(try await SQLiteWatchlistStorage(store: store).delete(name: "noir", owner: .system))
            #expect(try await store.read { try $0.integer("SELECT count(*) FROM watchlist_queries") } == 0)
            #expect(try await store.integrityCheck() == "ok")
            await store.close()
        }
    }

    @Test("two users signed in to the same TMDB account keep separate outboxes and lists")
    func ownersNeverShareRows() async throws {
        try await TemporaryDatabase.with { database in
            let store = try Self.open(database)
            let alice = SQLiteAccountStorage(store: store, owner: Self.alice)
            let bob = SQLiteAccountStorage(store: store, owner: Self.bob)
            let edit = try AccountEdit(movieID: 603, change: .watchlist(true))
            let alices = try await alice.enqueue(edit, accountID: 22011, at: Self.start)
            _ = try await bob.enqueue(try AccountEdit(movieID: 11, change: .favorite(true)), accountID: 22011, at: Self.start)
            // Bob's storage cannot settle, fail, reject or dismiss Alice's entry, even by its id.
            try await bob.markDelivered(alices.id, edit: edit, accountID: 22011, at: Self.start)
            try await bob.markFailed(alices.id, error: "x", nextAttemptAt: nil)
            try await bob.reject(alices.id, reason: "x", at: Self.start)
            _ = try await bob.replaceLists([.watchlist: []], accountID: 22011, pulledAt: Self.start, expired: [])
            _ = try await bob.dismissRejected(accountID: 22011)
            let aliceNow = try await alice.snapshot(accountID: 22011)
            #expect(aliceNow.entries.map(\.id) == [alices.id])
            #expect(aliceNow.entries.first?.state == .pending)
            #expect(aliceNow.entries.first?.attempts == 0)
            #expect(try await bob.snapshot(accountID: 22011).entries.map(\.edit.movieID) == [11])
            #expect(try await SQLiteAccountStorage.owners(in: store) == [Self.alice, Self.bob])
            // Watchlists of one name: one per owner.
            let lists = SQLiteWatchlistStorage(store: store)
            try await lists.save(Watchlist(name: "films", owner: .system, movieIDs: [1]))
            try await lists.save(Watchlist(name: "films", owner: Self.alice, movieIDs: [2]))
            #expect(try await lists.delete(name: "films", owner: Self.bob) == false)
            #expect(try await lists.watchlists().map(\.movieIDs) == [[1], [2]])
            await store.close()
        }
    }
}
