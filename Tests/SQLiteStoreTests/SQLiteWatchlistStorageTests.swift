import FoundationEssentials
import MoviesDomain
import Testing
@testable import SQLiteStore

@Suite struct SQLiteWatchlistStorageTests {
    static func entry(_ text: String, pages: Int = 3) throws -> WatchlistQuery {
        try WatchlistQuery(query: #require(MovieQuery(text)), pages: pages)
    }

    @Test func savesAndReadsListsInOrder() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 1)
            let storage = SQLiteWatchlistStorage(store: store)
            try await storage.save(Watchlist(name: "noir", queries: [Self.entry("Zodiac", pages: 2), Self.entry("alien")], movieIDs: [603, 11]))
            try await storage.save(Watchlist(name: "classics", movieIDs: [42]))
            let lists = try await storage.watchlists()
            #expect(lists.map(\.name) == ["classics", "noir"])
            #expect(lists[1].queries.map(\.query.query) == ["Zodiac", "alien"])
            #expect(lists[1].queries.map(\.pages) == [2, 3])
            #expect(lists[1].movieIDs == [603, 11])
            await store.close()
        }
    }

    @Test func saveReplacesTheWholeListAndDeleteRemovesIt() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 1)
            let storage = SQLiteWatchlistStorage(store: store)
            try await storage.save(Watchlist(name: "a", queries: [Self.entry("matrix")], movieIDs: [1, 2]))
            try await storage.save(Watchlist(name: "a", queries: [], movieIDs: [2]))
            #expect(try await storage.watchlists() == [Watchlist(name: "a", movieIDs: [2])])
            #expect(try await storage.delete(name: "a", owner: .system))
            #expect(try await storage.delete(name: "a", owner: .system) == false)
            #expect(try await storage.watchlists().isEmpty)
            let orphans = try await store.read { try $0.integer("SELECT count(*) FROM watchlist_movies") }
            #expect(orphans == 0)
            await store.close()
        }
    }

    @Test func theListsOfSomeOwnersAreReadAlone() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 1)
            let storage = SQLiteWatchlistStorage(store: store)
            let alice = Owner.user(LocalUser(uid: 1001)), bob = Owner.user(LocalUser(uid: 1002))
            try await storage.save(Watchlist(name: "films", queries: [Self.entry("heat")], movieIDs: [603]))
            try await storage.save(Watchlist(name: "films", owner: alice, queries: [Self.entry("alien", pages: 1)], movieIDs: [11, 12]))
            try await storage.save(Watchlist(name: "b", owner: bob, movieIDs: [13]))
            let all = try await storage.watchlists()
            #expect(try await storage.watchlists(of: [alice]) == all.filter { $0.owner == alice })
            #expect(try await storage.watchlists(of: [.system, bob]) == all.filter { $0.owner != alice })
            #expect(try await storage.watchlists(of: [.system, alice, bob]) == all)
            #expect(try await storage.watchlists(of: [Owner.user(LocalUser(uid: 7))]).isEmpty)
            #expect(try await storage.watchlists(of: []).isEmpty)
            #expect(try await storage.watchlists(of: [alice]).first?.queries.map(\.query.query) == ["alien"])
            await store.close()
        }
    }

    @Test func listsSurviveReopening() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 1)
            try await SQLiteWatchlistStorage(store: store).save(Watchlist(name: "keep", queries: [Self.entry("heat", pages: 5)]))
            await store.close()
            let reopened = try SQLiteStore(path: database.path, readers: 1)
            #expect(try await SQLiteWatchlistStorage(store: reopened).watchlists().first?.queries.first?.pages == 5)
            await reopened.close()
        }
    }
}
