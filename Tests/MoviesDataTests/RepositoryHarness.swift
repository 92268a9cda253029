import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesTestSupport

/// A repository wired to in-memory fakes and a test clock.
struct RepositoryHarness {
    let clock = TestClock()
    let storage = InMemoryResponseStorage()
    let remote: ScriptedMoviesRemote
    let health: RemoteHealth
    /// What the repository reported for the journal.
    let events = RecordingEventLog()
    let policy: CachePolicy
    /// The storage health the repository records (as `Status` reports it).
    let storageHealth: StorageHealthMonitor
    let repository: DefaultMoviesRepository

    init(policy: CachePolicy = CachePolicy(), evictionInterval: Int = 32, remote: ScriptedMoviesRemote = ScriptedMoviesRemote()) {
        self.remote = remote
        self.policy = policy
        // Three failures before the backoff, as these repository tests were written for (the
        // daemon's default is one; see RemoteHealthTests).
        health = RemoteHealth(configuration: .init(failureThreshold: 3), now: clock.now, randomUnit: { 0.5 }, events: events)
        storageHealth = StorageHealthMonitor(events: events, now: clock.now)
        repository = DefaultMoviesRepository(
            storage: storage, remote: remote, health: health, policy: policy,
            evictionInterval: evictionInterval, now: clock.now, storageHealth: storageHealth, index: storage)
    }

    static let matrix = MovieQuery("matrix")!

    static func request(_ query: String = "matrix", page: Int = 1) throws -> SearchRequest {
        try SearchRequest(query: MovieQuery(query)!, page: page)
    }

    static func remoteRequest(_ query: String = "matrix", page: Int = 1) -> RemoteRequest {
        .search(query: query, page: page, language: nil)
    }

    static func key(_ query: String = "matrix", page: Int = 1) -> String {
        CacheKey.search(MovieQuery(query)!, page: page, language: nil)
    }

    /// Stores a search page fetched `ageSeconds` ago, fresh for `freshSeconds` from then.
    func seedSearch(titles: [String], ageSeconds: Double, freshSeconds: Double = 6 * 3600, etag: String? = nil, query: String = "matrix") async {
        let fetchedAt = clock.date.addingTimeInterval(-ageSeconds)
        await storage.seed(StoredResponse(
            key: Self.key(query), resource: .search, body: TMDBSampleBodies.searchPage(titles: titles),
            fetchedAt: fetchedAt, expiresAt: fetchedAt.addingTimeInterval(freshSeconds), etag: etag))
    }

    func search(_ policy: FetchPolicy = .cacheThenNetwork, maxStale: Int? = nil, query: String = "matrix") async throws -> FetchedRecord<MoviesPage> {
        await FetchedRecord { try await repository.searchMovies(try Self.request(query), policy: policy, maxStaleSeconds: maxStale, emit: $0) }
    }

    static let offline = MoviesError(code: .remoteUnavailable, message: "connection refused")
}

extension Fetched where Value == MoviesPage {
    var titles: [String] { value.movies.map(\.title) }
}
