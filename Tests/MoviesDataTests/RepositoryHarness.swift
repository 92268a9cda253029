import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesTestSupport
import MoviesWire

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

    init(
        policy: CachePolicy = CachePolicy(), evictionInterval: Int = 32, remote: ScriptedMoviesRemote = ScriptedMoviesRemote(),
        catalogue: (any CatalogueStorage)? = nil
    ) {
        self.remote = remote
        self.policy = policy
        // Three failures before the backoff, as these repository tests were written for (the
        // daemon's default is one; see RemoteHealthTests).
        health = RemoteHealth(configuration: .init(failureThreshold: 3), now: clock.now, randomUnit: { 0.5 }, events: events)
        storageHealth = StorageHealthMonitor(events: events, now: clock.now)
        repository = DefaultMoviesRepository(
            storage: storage, remote: remote, health: health, policy: policy,
            evictionInterval: evictionInterval, now: clock.now, storageHealth: storageHealth, index: storage, catalogue: catalogue)
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
    /// Caches a search page as the daemon stores it, with its reply (`withReply: false`: as a row
    /// stored before replies were, which the first read upgrades).
    func seedSearch(titles: [String], ageSeconds: Double, freshSeconds: Double = 6 * 3600, etag: String? = nil, query: String = "matrix", withReply: Bool = true) async {
        let fetchedAt = clock.date.addingTimeInterval(-ageSeconds)
        let body = TMDBSampleBodies.searchPage(titles: titles)
        let reply = withReply ? (try? MoviesResponseDTO.decode(body).toDomain()).flatMap { try? WireCoding.bytes($0) } : nil
        await storage.seed(StoredResponse(
            key: Self.key(query), resource: .search, body: body,
            fetchedAt: fetchedAt, expiresAt: fetchedAt.addingTimeInterval(freshSeconds), etag: etag, reply: reply, replyVersion: WireCoding.version))
    }

    func search(_ policy: FetchPolicy = .cacheThenNetwork, maxStale: Int? = nil, query: String = "matrix") async throws -> FetchedRecord<MoviesPage> {
        await FetchedRecord { try await repository.searchMovies(try Self.request(query), policy: policy, maxStaleSeconds: maxStale, emit: $0) }
    }

    static let offline = MoviesError(code: .remoteUnavailable, message: "connection refused")
}

extension Fetched where Value == MoviesPage {
    var titles: [String] { value.movies.map(\.title) }
}
