import Foundation
import MoviesData
import MoviesDomain
import MoviesTestSupport
import MoviesWire
import Testing
@testable import SQLiteStore

/// Commits by another process (here: another connection, as the `sqlite3` shell would make) are
/// counted once noticed, and empty the memory of entries, so nothing remembered is served past them.
@Suite struct SQLiteStoreExternalWritesTests {
    static let body = #"{"page":1,"total_pages":1,"total_results":1,"results":[{"id":603,"title":"The Matrix"}]}"#

    static func freshPage(_ key: String) -> StoredResponse {
        let now = Date()
        return StoredResponse(key: key, resource: .search, body: Data(body.utf8), fetchedAt: now, expiresAt: now.addingTimeInterval(6 * 3600))
    }

    /// Deletes every response through a connection of its own, as another process would.
    static func deleteEverythingFromOutside(_ path: String) throws {
        let outsider = try SQLiteConnection(path: path, mode: .readWrite)
        _ = try outsider.run("DELETE FROM responses")
        outsider.close()
    }

    @Test func anotherConnectionsCommitMovesTheCounterAndNothingOfOurOwnDoesTwice() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 2)
            let storage = SQLiteResponseStorage(store: store)
            await store.noticeExternalWrites()
            let start = store.externalWriteCount
            try await storage.save(Self.freshPage("search:a"))
            _ = try await storage.response(forKey: "search:a")
            try await store.flushAccessTimes()
            await store.noticeExternalWrites()
            #expect(store.externalWriteCount == start, "our own writes, reads and access-time flushes are not another process's")

            try Self.deleteEverythingFromOutside(database.path)
            #expect(store.externalWriteCount == start, "not seen before anyone looks")
            await store.noticeExternalWrites()
            #expect(store.externalWriteCount == start + 1)
            await store.noticeExternalWrites()
            #expect(store.externalWriteCount == start + 1, "counted once")
            #expect(try await storage.response(forKey: "search:a") == nil)
            await store.close()
        }
    }

    /// A store and its response storage with the daemon's memory (emptied by other processes' commits).
    static func withMemoryStorage(_ body: (SQLiteStore, SQLiteResponseStorage, String) async throws -> Void) async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 2)
            let memory = ResponseMemory(byteBudget: 1 << 20, externalRevision: { store.externalWriteCount })
            try await body(store, SQLiteResponseStorage(store: store, memory: memory), database.path)
            await store.close()
        }
    }

    @Test func anotherProcesssCommitEmptiesTheMemoryOnceNoticed() async throws {
        try await Self.withMemoryStorage { store, storage, path in
            await store.noticeExternalWrites()
            try await storage.save(Self.freshPage("search:a"))
            #expect(storage.remembered(forKey: "search:a") != nil, "a save is remembered (write-through)")
            try Self.deleteEverythingFromOutside(path)
            #expect(storage.remembered(forKey: "search:a") != nil, "not known before anyone looks")
            await store.noticeExternalWrites()
            #expect(storage.remembered(forKey: "search:a") == nil, "another process's commit: which keys it touched is unknown")
            #expect(try await storage.response(forKey: "search:a") == nil)
        }
    }

    @Test func theCachedAnswerIsTheStoredReplyUntilAnotherProcessDeletesIt() async throws {
        try await Self.withMemoryStorage { store, storage, path in
            let repository = DefaultMoviesRepository(storage: storage, remote: ScriptedMoviesRemote(), health: RemoteHealth(), policy: CachePolicy())
            let request = try SearchRequest(query: #require(MovieQuery("matrix")), page: 1)
            var page = Self.freshPage(CacheKey.search(request.query, page: 1, language: nil))
            page.reply = Array(#"{"stored":"reply"}"#.utf8)
            page.replyVersion = WireCoding.version
            await store.noticeExternalWrites()
            try await storage.save(page)
            #expect(await repository.lookupSearch(request).answer?.json == Array(#"{"stored":"reply"}"#.utf8), "the stored reply, not the body decoded again")

            try Self.deleteEverythingFromOutside(path)
            await store.noticeExternalWrites()
            #expect(await repository.lookupSearch(request).answer == nil)
        }
    }
}
