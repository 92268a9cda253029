import Foundation
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Networking
import SQLiteStore
import Testing
import TMDBStub

/// Pins have a byte budget per owner (issue 45), over the daemon's own parts (TMDB client, SQLite
/// cache, eviction every 32 writes, the refresher) against the stub over HTTP, on a test clock:
/// with `[Cache] MaxBytes=2M`, one user's 150-query watchlist pinned 4.9 MB, and another user kept
/// none of his 60 cached pages. Now the first user's pins stop at a quarter of the budget, and the
/// other keeps at least three quarters of his pages.
@Suite(.blocksThreads, .timeLimit(.minutes(2))) struct PinBudgetIntegrationTests {
    static let alice = Owner.user(LocalUser(uid: 1001))
    static let budget: Int64 = 2 * 1024 * 1024

    /// 150 queries with a full first page in the stub's catalogue (none of the featured words bob
    /// searches): its nouns and adjectives, and their first four and three letters.
    static let alicesQueries: [String] = {
        let words = [
            "River", "Shadow", "Storm", "Garden", "Empire", "Dream", "Winter", "Summer", "Ghost", "Machine", "Island", "Mountain",
            "Ocean", "Fire", "City", "Road", "Heart", "Kingdom", "Secret", "Silence", "Thunder", "Mirror", "Angel", "Wolf", "Crown",
            "Harbor", "Desert", "Forest", "Signal", "Voyage", "Promise", "Stranger", "Letter", "Horizon", "Echo", "Moon", "Last", "Dark",
            "Silent", "Golden", "Broken", "Hidden", "Lost", "Wild", "Eternal", "Burning", "Frozen", "Distant", "Little", "Crimson",
            "Midnight", "Electric", "Forgotten", "Endless", "Quiet", "Savage",
        ]
        var queries: [String] = []
        for word in words {
            for query in [word, String(word.prefix(4)), String(word.prefix(3))] where !queries.contains(where: { $0.lowercased() == query.lowercased() }) {
                queries.append(query)
            }
        }
        return Array(queries.prefix(150))
    }()

    /// Bob's 60 pages: every page of the featured words, then the second page of some of alice's.
    static let bobsPages: [(query: String, page: Int)] =
        ["Matrix", "Star", "Love", "Night"].flatMap { word in (1...9).map { (word, $0) } } + alicesQueries.prefix(24).map { ($0, 2) }

    @Test func oneUsersLongPinnedListLeavesAnotherUserThreeQuartersOfHisPagesAtLeast() async throws {
        let stub = TMDBStubServer(configuration: TMDBStubConfiguration())
        let ports = try stub.start()
        defer { stub.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pinbudget-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appendingPathComponent("cache.sqlite3").path, readers: 2, migrator: SQLiteMigrator(migrations: StoreSchema.cacheMigrations))
        let clock = TestClock()
        let remote = TMDBRemote(configuration: TMDBRemoteConfiguration(
            apiBaseURL: try #require(URL(string: "http://127.0.0.1:\(ports.port)/3/")), credential: .bearer("stub-token"), requestsPerSecond: 1000))
        let health = RemoteHealth(now: clock.now)
        let responses = SQLiteResponseStorage(store: store, clock: clock.now)
        let movies = DefaultMoviesRepository(storage: responses, remote: remote, health: health, policy: CachePolicy(byteBudget: Self.budget), now: clock.now)
        let posters = DefaultPosterImagesRepository(storage: responses, remote: remote, health: health, now: clock.now)
        let lists = DefaultWatchlistRepository(storage: InMemoryWatchlistStorage(), responses: responses)
        let refresher = WatchlistRefresher(
            watchlists: lists, movies: movies, posterImages: posters, responses: responses,
            settings: .init(posters: false, pinBudget: PinBudget(cacheBytes: Self.budget)), now: clock.now)
        do {
            // Bob searches 60 pages, a second apart.
            for (query, page) in Self.bobsPages {
                let request = try SearchRequest(query: try #require(MovieQuery(query)), page: page)
                let fetched = await FetchedRecord<MoviesPage> { try await movies.searchMovies(request, policy: .networkOnly, maxStaleSeconds: nil, emit: $0) }
                #expect(fetched.error == nil, "\(query) page \(page)")
                clock.advance(by: 1)
            }
            // Alice keeps 150 queries on her list and refreshes it; the budget is enforced once
            // more at the end, as the next write would.
            let entries = try Self.alicesQueries.map { try WatchlistQuery(query: try #require(MovieQuery($0)), pages: 1) }
            _ = try await lists.add(to: "alices", owner: Self.alice, queries: entries, movieIDs: [])
            let summary = try await refresher.refresh(RefreshTarget(owners: [Self.alice]), mode: .due) { _ in clock.advance(by: 0.01) }
            _ = try await responses.evict(toFit: Self.budget)

            let bobsKeys = Self.bobsPages.map { CacheKey.search(MovieQuery($0.query)!, page: $0.page, language: nil) }
            var kept = 0
            for key in bobsKeys where try await store.read({ try $0.integer("SELECT count(*) FROM responses WHERE key = ?", [.text(key)]) }) == 1 {
                kept += 1
            }
            let statistics = try await responses.statistics(now: clock.date, byteBudget: Self.budget)
            print("pin budget: bob kept \(kept) of \(bobsKeys.count) pages; alice pinned \(summary.pinnedBytes ?? 0) bytes (\(statistics.pinnedEntries) pages), \(summary.overBudget ?? 0) over budget; cache \(statistics.bytes) of \(Self.budget) bytes")
            #expect(kept * 4 >= bobsKeys.count * 3, "bob keeps at least 75 % of his pages: \(kept) of \(bobsKeys.count)")
            #expect(try #require(summary.pinnedBytes) <= Self.budget / 4)
            #expect(summary.pinBudgetBytes == Self.budget / 4)
            #expect(try #require(summary.overBudget) > 0)
            #expect(statistics.bytes <= Self.budget)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }
}
