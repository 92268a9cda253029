import Foundation
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Networking
import SQLiteStore
import Testing
import TMDBStub

/// The change feed over the daemon's own parts (TMDB client, SQLite cache, search index) against
/// the stub over HTTP, counted by the stub's request log: only the cached movies TMDB lists are
/// fetched again, and a month's outage is caught up in three windows.
@Suite(.blocksThreads) struct ChangeFeedIntegrationTests {
    static let today = CalendarDay("2026-11-25")!

    struct World {
        let stub: TMDBStubServer
        let clock: TestClock
        let store: SQLiteStore
        let responses: SQLiteResponseStorage
        let movies: DefaultMoviesRepository
        let sync: ChangeFeedSync
        let index: SQLiteMovieTextIndex

        func requests(_ path: String) -> Int { stub.requestCount(path: path) }

        func record(_ ids: [Int], on day: CalendarDay, keys: [String] = ["title"]) {
            stub.changes.record(ids: ids, day: day, keys: keys)
        }

        /// Fetches and pins movie `id`, as a watchlist refresh does.
        func pin(_ id: Int) async throws {
            let fetched = await FetchedRecord<MovieDetails> { try await movies.movieDetails(id: id, language: nil, policy: .networkOnly, emit: $0) }
            #expect(fetched.error == nil)
            try await responses.pinForSystem([CacheKey.movie(id: id, language: nil)])
        }

        func cachedTitle(_ id: Int) async throws -> String? {
            let cached = await FetchedRecord<MovieDetails> { try await movies.movieDetails(id: id, language: nil, policy: .cacheOnly, emit: $0) }
            return cached.updates.last?.value.title
        }
    }

    static func withWorld(_ body: (World) async throws -> Void) async throws {
        let stub = TMDBStubServer(configuration: TMDBStubConfiguration())
        let ports = try stub.start()
        defer { stub.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("changefeed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appendingPathComponent("cache.sqlite3").path, readers: 2, migrator: SQLiteMigrator(migrations: StoreSchema.cacheMigrations))
        let clock = TestClock(today.start.addingTimeInterval(12 * 3600))
        let remote = TMDBRemote(configuration: TMDBRemoteConfiguration(
            apiBaseURL: try #require(URL(string: "http://127.0.0.1:\(ports.port)/3/")), credential: .bearer("stub-token"), requestsPerSecond: 1000))
        let health = RemoteHealth(now: clock.now)
        let responses = SQLiteResponseStorage(store: store, clock: clock.now)
        let index = SQLiteMovieTextIndex(store: store)
        let movies = DefaultMoviesRepository(storage: responses, remote: remote, health: health, now: clock.now, index: index)
        let posters = DefaultPosterImagesRepository(storage: responses, remote: remote, health: health, now: clock.now)
        let sync = ChangeFeedSync(
            remote: remote, storage: SQLiteChangeFeedStorage(store: store), movies: movies, posterImages: posters, health: health, now: clock.now)
        do {
            try await body(World(stub: stub, clock: clock, store: store, responses: responses, movies: movies, sync: sync, index: index))
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    @Test func onlyTheCachedMoviesTMDBListsAreFetchedAgain() async throws {
        try await Self.withWorld { world in
            let ids = Array(world.stub.catalogue.movies.prefix(5).map(\.id))
            let (kept, retitled, reimaged, unpinned, editedBefore) = (ids[0], ids[1], ids[2], ids[3], ids[4])
            for id in [kept, retitled, reimaged, editedBefore] { try await world.pin(id) }
            _ = await FetchedRecord<MovieDetails> { try await world.movies.movieDetails(id: unpinned, language: nil, policy: .networkOnly, emit: $0) }
            let uncached = try #require(world.stub.catalogue.movies.dropFirst(10).first?.id)
            // Edits after the copies were fetched (today 12:00), and one before.
            world.record([retitled, unpinned, uncached], on: Self.today)
            world.record([reimaged], on: Self.today, keys: ["images"])
            world.stub.changes.record(ids: [editedBefore], day: Self.today, time: "08:00:00", keys: ["overview"])

            let status = try await world.sync.run()
            #expect(status.lastOutcome == .ok)
            #expect(status.syncedThrough == "2026-11-25")
            #expect(status.changedCached == 4)
            #expect(status.refetched == 2)
            #expect(world.requests("/3/movie/\(editedBefore)") == 1, "fetched after its last edit: current, nothing fetched")
            let posterPath = try #require(world.stub.catalogue.movie(id: reimaged)?.posterPath)
            #expect(world.requests("/t/p/w342\(posterPath)") == 1)
            #expect(world.requests("/3/movie/changes") == 1)
            #expect(world.requests("/3/movie/\(kept)") == 1, "unchanged: not fetched again")
            #expect(world.requests("/3/movie/\(retitled)") == 2, "its title changed: fetched again")
            #expect(world.requests("/3/movie/\(reimaged)") == 1, "only its images changed: its poster is fetched, not its details")
            #expect(world.requests("/3/movie/\(unpinned)") == 1, "not pinned: marked stale only")
            #expect(world.requests("/3/movie/\(uncached)") == 0)
            #expect(try await world.cachedTitle(retitled)?.hasSuffix("(revision 1)") == true)
            // The index follows the fetched details.
            let found = try await world.index.search(LocalSearchQuery(text: "revision", language: ""))
            #expect(found.total == 1)

            let kept_ = try #require(try await world.responses.response(forKey: CacheKey.movie(id: kept, language: nil)))
            #expect(kept_.expiresAt == world.clock.date.addingTimeInterval(1.5 * 86_400), "confirmed unchanged: fresh for 36 h")
            let stale = try #require(try await world.responses.response(forKey: CacheKey.movie(id: unpinned, language: nil)))
            #expect(stale.isStale(at: world.clock.date))

            // A second run the same day reads the same window, changes nothing new, fetches nothing.
            try await world.sync.run()
            #expect(world.requests("/3/movie/changes") == 2)
            #expect(world.requests("/3/movie/\(retitled)") == 3, "still listed today: fetched again (the feed has days, not times)")
        }
    }

    @Test func aMonthOfOutageIsCaughtUpInThreeWindows() async throws {
        try await Self.withWorld { world in
            let id = try #require(world.stub.catalogue.movies.first?.id)
            try await world.pin(id)
            world.clock.set(Self.today.adding(days: -30).start.addingTimeInterval(3600))
            try await world.sync.run()
            #expect(world.requests("/3/movie/changes") == 1)
            world.clock.set(Self.today.start.addingTimeInterval(3600))
            world.record([id], on: Self.today.adding(days: -20))
            let status = try await world.sync.run()
            #expect(world.requests("/3/movie/changes") == 4, "three windows of up to 14 days")
            #expect(status.lastOutcome == .ok)
            #expect(status.refetched == 1)
            #expect(world.requests("/3/movie/\(id)") == 2)
        }
    }
}
