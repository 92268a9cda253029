import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesWire
import Synchronization
import Testing
@testable import SQLiteStore

/// The index's queue: a stored response is queued in its own transaction and indexed after, by
/// the upkeep's service or by the next search, whichever comes first; nothing is lost to a crash,
/// a deletion or a full disk.
@Suite(.timeLimit(.minutes(1))) struct MovieIndexUpkeepTests {
    typealias Index = SQLiteMovieTextIndexTests

    /// Runs the upkeep's service over `store` for `body`: storage that wakes it, and each
    /// catch-up's queue rows (-1: it failed). `before` stores what is there when it starts.
    static func withService(
        _ store: SQLiteStore, gather: @escaping @Sendable () async -> Void = {},
        before: (SQLiteResponseStorage) async throws -> Void = { _ in },
        _ body: (SQLiteResponseStorage, inout AsyncStream<Int>.Iterator) async throws -> Void
    ) async throws {
        let (reports, reporter) = AsyncStream.makeStream(of: Int.self)
        let upkeep = MovieIndexUpkeep(store: store, gather: gather, report: { outcome in reporter.yield((try? outcome.get()) ?? -1) })
        let storage = SQLiteResponseStorage(store: store, indexUpkeep: upkeep)
        try await before(storage)
        let service = Task { await upkeep.run() }
        var outcomes = reports.makeAsyncIterator()
        do {
            try await body(storage, &outcomes)
        } catch {
            service.cancel()
            await service.value
            throw error
        }
        service.cancel()
        await service.value
    }

    @Test func aStoredPageIsQueuedInItsTransactionAndIndexedAfter() async throws {
        try await Index.withIndex { storage, _, store in
            try await storage.save(Index.page("a", [Movie(id: 1, title: "Alpha"), Movie(id: 2, title: "Beta")]))
            try await storage.save(StoredResponse(
                key: "image/w92/a.jpg", resource: .poster, body: Data([0xff, 0xd8]), contentType: "image/jpeg",
                fetchedAt: Index.fetchedAt, expiresAt: Index.fetchedAt.addingTimeInterval(600)))
            #expect(try await Index.count("movie_index_queue", store) == 1, "the page, not the poster")
            #expect(try await Index.count("movie_text", store) == 0)
            let revision = store.writeRevision
            #expect(try await MovieIndexUpkeep(store: store).catchUp() == 1)
            #expect(try await Index.count("movie_index_queue", store) == 0)
            #expect(try await Index.count("movie_text", store) == 2)
            #expect(store.writeRevision == revision, "indexing changes no stored response")
            try await Index.integrityCheck(store)
        }
    }

    @Test func onlyABacklogIsIndexedAfterACheckpoint() async throws {
        try await Index.withIndex { storage, _, store in
            // The database file grows only when a checkpoint copies the WAL into it.
            let fileSize = { () throws -> Int in
                try (FileManager.default.attributesOfItem(atPath: store.path)[.size] as? Int) ?? 0
            }
            try await storage.save(Index.page("a", [Movie(id: 1, title: "Alpha")]))
            let small = try fileSize()
            #expect(try await MovieIndexUpkeep(store: store).catchUp(checkpointing: true) == 1)
            #expect(try fileSize() == small, "a few pages stored: the WAL is left to SQLite")
            for number in 0..<MovieIndexUpkeep.checkpointBacklog {
                try await storage.save(Index.page("q\(number)", [Movie(id: 100 + number, title: "Movie \(number)")]))
            }
            #expect(try await MovieIndexUpkeep(store: store).catchUp(checkpointing: true) == MovieIndexUpkeep.checkpointBacklog)
            #expect(try fileSize() > small, "a backlog: checkpointed first")
            #expect(try await Index.count("movie_text", store) == 1 + MovieIndexUpkeep.checkpointBacklog)
        }
    }

    @Test func aSearchIndexesWhatIsQueuedFirst() async throws {
        try await Index.withIndex { storage, index, store in
            try await storage.save(Index.page("a", [Movie(id: 1, title: "Alpha")]))
            // Stored twice before it is indexed: queued twice, indexed once, as it is now.
            try await storage.save(Index.page("a", [Movie(id: 2, title: "Alphabet")], fetchedAt: Index.fetchedAt.addingTimeInterval(1)))
            #expect(try await Index.count("movie_index_queue", store) == 2)
            #expect(try await Index.ids(index, "alpha").ids == [2])
            #expect(try await Index.count("movie_index_queue", store) == 0)
        }
    }

    @Test func aResponseDeletedBeforeItIsIndexedLeavesNothingQueuedOrIndexed() async throws {
        try await Index.withIndex { storage, index, store in
            try await storage.save(Index.page("a", [Movie(id: 1, title: "Alpha")]))
            _ = try await storage.purge(keyPrefixes: ["search/"])
            #expect(try await Index.count("movie_index_queue", store) == 0)
            #expect(try await Index.ids(index, "alpha").total == 0)
            #expect(try await Index.count("movie_text", store) == 0)
        }
    }

    @Test func theServiceIndexesWhatWasLeftQueuedThenWhatIsStored() async throws {
        try await Index.withIndex { _, _, store in
            // Queued before the service runs, as a crash leaves it (by storage that wakes nobody).
            try await SQLiteResponseStorage(store: store).save(Index.page("a", [Movie(id: 1, title: "Alpha")]))
            try await Self.withService(store) { storage, outcomes in
                #expect(await outcomes.next() == 1)
                try await storage.save(Index.page("b", [Movie(id: 2, title: "Beta")]))
                #expect(await outcomes.next() == 1)
                #expect(try await Index.count("movie_text", store) == 2)
            }
        }
    }

    @Test func theServiceGathersWhatIsStoredAfterAWakeIntoOneCatchUp() async throws {
        try await Index.withIndex { _, _, store in
            let (gathering, gatheringStarted) = AsyncStream.makeStream(of: Void.self)
            let (gates, gate) = AsyncStream.makeStream(of: Void.self)
            let gather: @Sendable () async -> Void = {
                gatheringStarted.yield()
                for await _ in gates { break }
            }
            // Stored before the service starts: indexed by its first catch-up, and its wake
            // starts the first gathering.
            try await Self.withService(store, gather: gather, before: { try await $0.save(Index.page("a", [Movie(id: 1, title: "Alpha")])) }) { storage, outcomes in
                #expect(await outcomes.next() == 1)
                var started = gathering.makeAsyncIterator()
                await started.next()
                // Stored while the service gathers: indexed together when it ends.
                try await storage.save(Index.page("b", [Movie(id: 2, title: "Beta")]))
                try await storage.save(Index.page("c", [Movie(id: 3, title: "Gamma")]))
                #expect(try await Index.count("movie_text", store) == 1)
                gate.yield()
                #expect(await outcomes.next() == 2)
                #expect(try await Index.count("movie_text", store) == 3)
            }
        }
    }

    @Test func aCatchUpTakesTheOldestRowsFirstAndStopsAtTheLastOneThereWhenItStarted() async throws {
        try await Index.withIndex { storage, _, store in
            for number in 1...5 {
                try await storage.save(Index.page("p\(number)", [Movie(id: number, title: "Page \(number)")]))
            }
            let ceiling = try #require(try await store.read { try $0.integer("SELECT max(seq) FROM movie_index_queue") })
            // Stored after the catch-up started, under keys that sort before every search page's.
            for id in 6...9 {
                let details = MovieDetails(id: id, title: "Details \(id)")
                try await storage.save(StoredResponse(
                    key: CacheKey.movie(id: id, language: nil), resource: .movie, body: Data("{}".utf8), fetchedAt: Index.fetchedAt,
                    expiresAt: Index.fetchedAt.addingTimeInterval(600), reply: try WireCoding.bytes(details), replyVersion: WireCoding.version))
            }
            let taken = try await store.write { connection in
                try MovieTextIndexWriter.indexQueued(upTo: 8, through: ceiling, in: connection)
            }
            #expect(taken == 5)
            #expect(try await Index.count("movie_text", store) == 5, "every page queued before, no details queued after")
            #expect(try await Index.count("movie_index_queue", store) == 4)
        }
    }

    @Test func anUnreadableQueuedRowIsTakenOffTheQueueAndIndexingGoesOn() async throws {
        try await Index.withIndex { storage, index, store in
            try await storage.save(Index.page("odd", [Movie(id: 1, title: "Alpha")]))
            try await store.write { connection in
                _ = try connection.run("UPDATE responses SET resource = 'from-the-future'")
            }
            try await storage.save(Index.page("b", [Movie(id: 2, title: "Beta")]))
            #expect(try await Index.ids(index, "beta").ids == [2])
            #expect(try await Index.ids(index, "alpha").total == 0)
            #expect(try await Index.count("movie_index_queue", store) == 0)
        }
    }

    @Test func aNegativeEntryOverAnIndexedPageTakesItsMoviesOut() async throws {
        try await Index.withIndex { storage, index, store in
            try await storage.save(Index.page("a", [Movie(id: 1, title: "Alpha")]))
            #expect(try await Index.ids(index, "alpha").ids == [1])
            try await storage.save(StoredResponse(
                key: Index.page("a", []).key, resource: .search, body: Data(), httpStatus: 404,
                fetchedAt: Index.fetchedAt.addingTimeInterval(1), expiresAt: Index.fetchedAt.addingTimeInterval(60)))
            #expect(try await Index.ids(index, "alpha").total == 0)
            #expect(try await Index.count("movie_text", store) == 0)
            // A negative entry of a key never cached is not queued at all, nor one stored again.
            for seconds in [0.0, 5] {
                try await storage.save(StoredResponse(
                    key: Index.page("z", []).key, resource: .search, body: Data(), httpStatus: 404,
                    fetchedAt: Index.fetchedAt.addingTimeInterval(seconds), expiresAt: Index.fetchedAt.addingTimeInterval(60)))
            }
            #expect(try await Index.count("movie_index_queue", store) == 0)
        }
    }

    @Test func aRevalidatedPageIsQueuedAndWakesTheServiceSoItsMoviesShowTheNewDate() async throws {
        try await Index.withIndex { _, index, store in
            let page = Index.page("a", [Movie(id: 1, title: "Alpha")])
            try await Self.withService(store, before: { try await $0.save(page) }) { storage, outcomes in
                #expect(await outcomes.next() == 1)
                let later = Index.fetchedAt.addingTimeInterval(3600)
                try await storage.revalidate(key: page.key, fetchedAt: later, expiresAt: later.addingTimeInterval(600))
                #expect(await outcomes.next() == 1, "queued by the revalidation, indexed by the service it woke")
                let found = try await index.search(LocalSearchQuery(text: "alpha", language: ""))
                #expect(found.movies.map(\.fetchedAt) == [later])
            }
        }
    }

    @Test func aFullDiskLeavesTheQueueForLaterAndTheIndexAnswersAsItStands() async throws {
        try await Index.withIndex { storage, _, store in
            try await storage.save(Index.page("a", [Movie(id: 1, title: "Alpha")]))
            let failures = Failures()
            let index = SQLiteMovieTextIndex(store: store, upkeep: MovieIndexUpkeep(store: store, report: { outcome in
                if case .failure(let error) = outcome { failures.record(error) }
            }))
            #expect(try await Index.ids(index, "alpha").ids == [1])
            // A page written with a reply long enough to need new pages, then no room for its index rows.
            let long = (1...40).map { Movie(id: 100 + $0, title: "Gamma \($0)", overview: String(repeating: "a long overview of many words ", count: 20)) }
            try await storage.save(Index.page("b", long))
            try await store.write { connection in
                let pages = try connection.integer("PRAGMA page_count") ?? 1
                _ = try connection.integer("PRAGMA max_page_count = \(pages)")
            }
            #expect(try await Index.ids(index, "alpha").ids == [1], "answers from what is indexed")
            #expect(try await Index.ids(index, "gamma").total == 0)
            #expect(failures.count == 2)
            #expect(try await Index.count("movie_index_queue", store) == 1, "still queued")
            try await store.write { connection in _ = try connection.integer("PRAGMA max_page_count = 1073741823") }
            #expect(try await Index.ids(index, "gamma").total == 40)
            #expect(try await Index.count("movie_index_queue", store) == 0)
            try await Index.integrityCheck(store)
        }
    }
}

/// Errors reported from a `@Sendable` closure.
private final class Failures: Sendable {
    private let errors = Mutex<[any Error]>([])
    func record(_ error: any Error) { errors.withLock { $0.append(error) } }
    var count: Int { errors.withLock { $0.count } }
}
