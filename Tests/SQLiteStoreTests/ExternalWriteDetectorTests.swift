import Foundation
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing
@testable import SQLiteStore

/// Commits by another process (here: another connection, as the `sqlite3` shell would make) reach
/// the change counter once noticed, so an answer remembered in memory is not served past them.
@Suite struct ExternalWriteDetectorTests {
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

    @Test func anotherConnectionsCommitChangesTheRevisionAndNothingElseDoes() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 2, externalWriteCheckInterval: .zero)
            let storage = SQLiteResponseStorage(store: store)
            var revision: UInt64 {
                store.noticeExternalWrites()
                return storage.changeCount
            }
            try await storage.save(Self.freshPage("search:a"))
            // The first look after a write of our own may count it once as a change; then it settles.
            _ = revision
            let settled = revision
            #expect(revision == settled, "repeated looks change nothing")
            _ = try await storage.response(forKey: "search:a")
            #expect(revision == settled, "a read is not a write")
            // An access-time flush is a write of our own: counted at most once, then settled again.
            try await store.flushAccessTimes()
            _ = revision
            let afterOwnActivity = revision
            #expect(revision == afterOwnActivity)

            try Self.deleteEverythingFromOutside(database.path)
            let afterOutsideWrite = revision
            #expect(afterOutsideWrite > afterOwnActivity)
            #expect(revision == afterOutsideWrite)
            #expect(try await storage.response(forKey: "search:a") == nil)
            await store.close()
        }
    }

    @Test func theCachedAnswerIsTheStoredReplyUntilAnotherProcessDeletesIt() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 2, externalWriteCheckInterval: .zero)
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

    @Test func theFileIsAskedAtMostOncePerInterval() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 2, externalWriteCheckInterval: .seconds(3600))
            let storage = SQLiteResponseStorage(store: store)
            var revision: UInt64 {
                store.noticeExternalWrites()
                return storage.changeCount
            }
            try await storage.save(Self.freshPage("search:a"))
            let first = revision  // the first look: the data version is noted
            try Self.deleteEverythingFromOutside(database.path)
            // Not looked at again within the hour: the outside write is not seen yet (the bound the
            // interval sets), while the store's own writes still count at once.
            #expect(revision == first)
            try await storage.save(Self.freshPage("search:b"))
            #expect(revision > first)
            await store.close()
        }
    }
}
