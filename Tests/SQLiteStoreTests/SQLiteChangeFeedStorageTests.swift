import FoundationEssentials
import Foundation
import MoviesData
import MoviesDomain
import MoviesTestSupport
import MoviesWire
import Testing
@testable import SQLiteStore

/// Applying the change feed to the cache: in one transaction with the cursor, changed movies go
/// stale (pinned ones are handed back to be fetched again), unchanged ones known current stay
/// fresh, search pages listing a changed movie go stale.
@Suite struct SQLiteChangeFeedStorageTests {
    static let day: Double = 86_400
    static let now = Date(timeIntervalSince1970: 1_795_600_800)  // 2026-11-25 10:00 UTC

    static func movie(_ id: Int, fetchedAgo: Double, key: String? = nil) -> StoredResponse {
        let fetchedAt = now.addingTimeInterval(-fetchedAgo)
        return StoredResponse(
            key: key ?? CacheKey.movie(id: id, language: nil), resource: .movie, body: TMDBSampleBodies.movie(id: id, title: "Movie \(id)"),
            fetchedAt: fetchedAt, expiresAt: fetchedAt.addingTimeInterval(day))
    }

    static func withStorage(_ body: (SQLiteResponseStorage, SQLiteChangeFeedStorage, SQLiteStore) async throws -> Void) async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 2)
            do {
                // A memory in front of the responses, as the daemon has: what the feed sets must reach it too.
                try await body(SQLiteResponseStorage(store: store, memory: ResponseMemory(byteBudget: 1 << 20)), SQLiteChangeFeedStorage(store: store), store)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        }
    }

    /// The expiry of `key` as `storage` answers it (from its memory, which every save filled),
    /// checked against the table itself.
    static func expiry(_ key: String, _ storage: SQLiteResponseStorage, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Date? {
        let answered = try await storage.response(forKey: key)?.expiresAt
        let stored = try await SQLiteResponseStorage(store: storage.store).response(forKey: key)?.expiresAt
        #expect(answered == stored, "the memory holds what the table holds", sourceLocation: sourceLocation)
        return answered
    }

    @Test func changedMoviesGoStaleUnchangedOnesStayFreshAndTheCursorMovesWithThem() async throws {
        try await Self.withStorage { responses, feed, _ in
            let coveredSince = Self.now.addingTimeInterval(-Self.day)
            try await responses.save(Self.movie(1, fetchedAgo: 3600))  // changed, pinned
            try await responses.save(Self.movie(2, fetchedAgo: 3600))  // changed
            try await responses.save(Self.movie(3, fetchedAgo: 3600))  // unchanged, fetched inside the window
            try await responses.save(Self.movie(4, fetchedAgo: 3 * Self.day))  // unchanged, but fetched before the window
            try await responses.save(Self.movie(603, fetchedAgo: 3600))
            try await responses.pinForSystem([CacheKey.movie(id: 1, language: nil)])
            // A search page listing movie 2, and one not.
            for (query, movie) in [("two", Movie(id: 2, title: "Two")), ("five", Movie(id: 5, title: "Five"))] {
                let page = MoviesPage(page: 1, totalPages: 1, totalResults: 1, movies: [movie])
                try await responses.save(StoredResponse(
                    key: "search/movie?query=\(query)&language=&page=1", resource: .search, body: Data("{}".utf8),
                    fetchedAt: Self.now, expiresAt: Self.now.addingTimeInterval(Self.day), reply: try WireCoding.bytes(page), replyVersion: WireCoding.version))
            }

            let validUntil = Self.now.addingTimeInterval(1.5 * Self.day)
            let applied = try await feed.applyChanges(
                ChangeFeedChanges(changedIDs: [1, 2, 77], coveredSince: coveredSince, validUntil: validUntil, now: Self.now, syncedThrough: "2026-11-25"),
                status: ChangeFeedStatus(syncedThrough: "2026-11-25", lastRunAt: Self.now, lastOutcome: .ok, requests: 3))
            #expect(applied.pinnedChanged == [1])
            #expect(applied.changedCached == 2)
            #expect(applied.validated == 2, "movies 3 and 603")

            let key = { (id: Int) in CacheKey.movie(id: id, language: nil) }
            #expect(try await Self.expiry(key(1), responses) == Self.now.addingTimeInterval(-3600 + Self.day), "pinned: left for the caller")
            #expect(try await Self.expiry(key(2), responses) == Self.now)
            #expect(try await Self.expiry(key(3), responses) == validUntil)
            #expect(try await Self.expiry(key(603), responses) == validUntil)
            #expect(try await Self.expiry(key(4), responses) == Self.now.addingTimeInterval(-2 * Self.day), "not known current since the window")
            #expect(try await Self.expiry("search/movie?query=two&language=&page=1", responses) == Self.now)
            #expect(try await Self.expiry("search/movie?query=five&language=&page=1", responses) == Self.now.addingTimeInterval(Self.day))

            let status = try await feed.changeFeedStatus()
            #expect(status.syncedThrough == "2026-11-25")
            #expect(status.lastOutcome == .ok)
            #expect(status.changedCached == 2)
            #expect(status.validated == 2)
            #expect(status.requests == 3)

            // The next day reads from the start of today again (the overlap), which lists 1 and 2
            // again; 3 and 603, validated today, are confirmed again; 4 still is not.
            let tomorrow = Self.now.addingTimeInterval(Self.day)
            let next = try await feed.applyChanges(
                ChangeFeedChanges(changedIDs: [1, 2], coveredSince: CalendarDay(Self.now).start, validUntil: tomorrow.addingTimeInterval(Self.day), now: tomorrow, syncedThrough: "2026-11-26"),
                status: ChangeFeedStatus(syncedThrough: "2026-11-26", lastRunAt: tomorrow, lastOutcome: .ok))
            #expect(next.validated == 2, "3 and 603; not 4")
            #expect(try await Self.expiry(key(3), responses) == tomorrow.addingTimeInterval(Self.day))
        }
    }

    @Test func aGapMakesEveryPinnedMovieChangedAndValidatesNothing() async throws {
        try await Self.withStorage { responses, feed, _ in
            for id in [1, 2, 3] { try await responses.save(Self.movie(id, fetchedAgo: 60)) }
            try await responses.pinForSystem([1, 3].map { CacheKey.movie(id: $0, language: nil) })
            let applied = try await feed.applyChanges(
                ChangeFeedChanges(changedIDs: [], coveredSince: nil, validUntil: Self.now.addingTimeInterval(Self.day * 9), now: Self.now, syncedThrough: "2026-11-25"),
                status: ChangeFeedStatus(syncedThrough: "2026-11-25", lastRunAt: Self.now, lastOutcome: .fullRevalidation))
            #expect(applied.pinnedChanged == [1, 3])
            #expect(applied.validated == 0)
            #expect(try await feed.changeFeedStatus().lastOutcome == .fullRevalidation)
        }
    }

    @Test func moviesAreMadeFreshOrStaleByIdInEveryLanguageAndNoOther() async throws {
        try await Self.withStorage { responses, feed, _ in
            try await responses.save(Self.movie(603, fetchedAgo: 60))
            try await responses.save(Self.movie(603, fetchedAgo: 60, key: CacheKey.movie(id: 603, language: "de")))
            try await responses.save(Self.movie(6031, fetchedAgo: 60))
            let until = Self.now.addingTimeInterval(5 * Self.day)
            try await feed.setMoviesFresh([603], until: until, now: Self.now)
            #expect(try await Self.expiry(CacheKey.movie(id: 603, language: nil), responses) == until)
            #expect(try await Self.expiry(CacheKey.movie(id: 603, language: "de"), responses) == until)
            #expect(try await Self.expiry(CacheKey.movie(id: 6031, language: nil), responses) == Self.now.addingTimeInterval(-60 + Self.day))
            try await feed.setMoviesFresh([603], until: nil, now: Self.now)
            #expect(try await Self.expiry(CacheKey.movie(id: 603, language: nil), responses) == Self.now)
        }
    }

    @Test func theStatusSurvivesAReopen() async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 1)
            try await SQLiteChangeFeedStorage(store: store).recordChangeFeedRun(
                ChangeFeedStatus(syncedThrough: "2026-11-20", lastRunAt: Self.now, lastOutcome: .failed, lastError: "reset", requests: 2))
            await store.close()
            let reopened = try SQLiteStore(path: database.path, readers: 1)
            let status = try await SQLiteChangeFeedStorage(store: reopened).changeFeedStatus()
            #expect(status == ChangeFeedStatus(syncedThrough: "2026-11-20", lastRunAt: Self.now, lastOutcome: .failed, lastError: "reset", requests: 2))
            await reopened.close()
        }
    }
}
