import Foundation
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing
@testable import SQLiteStore

/// Commits by another process (here: another connection, as the `sqlite3` shell would make) reach
/// the change counter once noticed, so an answer remembered in memory is not served past them.
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
            let start = storage.changeCount
            try await storage.save(Self.freshPage("search:a"))
            await store.noticeExternalWrites()
            #expect(storage.changeCount == start + 1, "our own write counts once, as a write")
            _ = try await storage.response(forKey: "search:a")
            try await store.flushAccessTimes()
            await store.noticeExternalWrites()
            #expect(storage.changeCount == start + 1, "reads and access-time flushes are not changes")

            try Self.deleteEverythingFromOutside(database.path)
            #expect(storage.changeCount == start + 1, "not seen before anyone looks")
            await store.noticeExternalWrites()
            let afterOutsideWrite = storage.changeCount
            #expect(afterOutsideWrite > start + 1)
            await store.noticeExternalWrites()
            #expect(storage.changeCount == afterOutsideWrite, "counted once")
            #expect(try await storage.response(forKey: "search:a") == nil)
            await store.close()
        }
    }

    @Test func theCachedAnswerIsTheStoredReplyUntilAnotherProcessDeletesIt() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 2)
            let storage = SQLiteResponseStorage(store: store)
            let repository = DefaultMoviesRepository(storage: storage, remote: ScriptedMoviesRemote(), health: RemoteHealth(), policy: CachePolicy())
            let request = try SearchRequest(query: #require(MovieQuery("matrix")), page: 1)
            var page = Self.freshPage(CacheKey.search(request.query, page: 1, language: nil))
            page.reply = Data(#"{"stored":"reply"}"#.utf8)
            try await storage.save(page)
            #expect(await repository.cachedSearchAnswer(request)?.json == Array(#"{"stored":"reply"}"#.utf8), "the stored reply, not the body decoded again")

            try Self.deleteEverythingFromOutside(database.path)
            #expect(await repository.cachedSearchAnswer(request) == nil)
            await store.close()
        }
    }
}
