import FoundationEssentials
@testable import MoviesData
import MoviesDomain
import MoviesTestSupport
import SystemSupport

/// A watchlist refresher and scheduler wired to in-memory fakes, a test clock and a scripted
/// remote whose search results have `totalPages` pages, whose movies have no poster and whose
/// change feed lists nothing; optionally with the change feed and TMDB accounts.
struct RefresherHarness {
    let clock = TestClock()
    let responses = InMemoryResponseStorage()
    let lists = InMemoryWatchlistStorage()
    let remote: ScriptedMoviesRemote
    let health: RemoteHealth
    let repository: DefaultWatchlistRepository
    let movies: DefaultMoviesRepository
    let refresher: WatchlistRefresher
    let scheduler: RefreshScheduler
    let wake = WakeSignal()
    /// What the refresher reported for the journal.
    let events = RecordingEventLog()
    /// The last refresh, kept as the state database keeps it.
    let history: InMemoryRefreshHistoryStorage
    /// The change feed's storage, when the refresher follows the feed.
    let changeFeedStorage: ChangeFeedSyncTests.RecordingStorage?

    init(
        totalPages: Int = 2, schedule: RefreshScheduler.Configuration = RefreshScheduler.Configuration(),
        history: InMemoryRefreshHistoryStorage = InMemoryRefreshHistoryStorage(), changeFeed: Bool = false, accounts: AccountDirectory? = nil,
        pinBudget: PinBudget = .unlimited, concurrentQueries: Int = 8
    ) {
        self.history = history
        remote = ScriptedMoviesRemote(handler: Self.handler(totalPages: totalPages))
        health = RemoteHealth(configuration: .init(failureThreshold: 1000), now: clock.now, randomUnit: { 0.5 })
        let wake = wake
        repository = DefaultWatchlistRepository(storage: lists, responses: responses, didChange: { wake.signal() })
        movies = DefaultMoviesRepository(storage: responses, remote: remote, health: health, now: clock.now)
        let posters = DefaultPosterImagesRepository(storage: responses, remote: remote, health: health, now: clock.now)
        let storage = changeFeed ? ChangeFeedSyncTests.RecordingStorage() : nil
        changeFeedStorage = storage
        var feed: ChangeFeedSync?
        if let storage {
            feed = ChangeFeedSync(remote: remote, storage: storage, movies: movies, posterImages: posters, health: health, now: clock.now)
        }
        var lists: any WatchlistRepository = repository
        if let accounts { lists = AccountPinnedWatchlists(base: repository, accounts: accounts) }
        refresher = WatchlistRefresher(
            watchlists: lists, movies: movies, posterImages: posters, responses: responses,
            settings: .init(posters: false, concurrentQueries: concurrentQueries, pinBudget: pinBudget), now: clock.now, events: events, changeFeed: feed, account: accounts, history: history)
        scheduler = RefreshScheduler(refresher: refresher, responses: responses, configuration: schedule, wake: wake, now: clock.now, randomUnit: { 0.5 })
    }

    static func handler(totalPages: Int) -> ScriptedMoviesRemote.Handler {
        { request, _ in
            switch request {
            case .search(_, let page, _, _, _):
                return TMDBSampleBodies.ok(TMDBSampleBodies.searchPage(page: page, titles: ["Title \(page)"], totalPages: totalPages))
            case .movie(let id, _):
                return TMDBSampleBodies.ok(TMDBSampleBodies.movie(id: id, title: "Movie \(id)"))
            case .movieChanges(_, _, let page):
                return TMDBSampleBodies.ok(Data(#"{"results":[],"page":\#(page),"total_pages":1,"total_results":0}"#.utf8))
            default:
                throw MoviesError(code: .notFound, message: "no such thing", httpStatus: 404)
            }
        }
    }

    static let down = MoviesError(code: .remoteUnavailable, message: "connection refused")

    func takeDown() async {
        await remote.setHandler { _, _ in throw Self.down }
    }

    func bringUp(totalPages: Int = 2) async {
        await remote.setHandler(Self.handler(totalPages: totalPages))
    }

    func add(_ name: String = "films", queries: [String] = [], pages: Int = 3, movies ids: [Int] = [], owner: Owner = .system) async throws {
        let entries = try queries.map { try WatchlistQuery(query: MovieQuery($0)!, pages: pages) }
        _ = try await repository.add(to: name, owner: owner, queries: entries, movieIDs: ids)
    }

    /// How many times the change feed was read (its first window's first page).
    func changeFeedReads() async -> Int {
        await remote.requests.filter { request in
            if case .movieChanges(_, _, 1) = request { return true }
            return false
        }.count
    }

    /// Answers `query` page `page` from the cache only.
    func cachedPage(_ query: String, page: Int) async throws -> MoviesPage {
        let request = try SearchRequest(query: MovieQuery(query)!, page: page)
        return try await FetchedUpdates.last(of: { try await movies.searchMovies(request, policy: .cacheOnly, maxStaleSeconds: nil, emit: $0) }).value
    }

    /// Answers movie `id` from the cache only.
    func cachedMovie(_ id: Int) async throws -> MovieDetails {
        try await FetchedUpdates.last(of: { try await movies.movieDetails(id: id, language: nil, policy: .cacheOnly, emit: $0) }).value
    }
}
