import FoundationEssentials
import MoviesDomain

/// A `MoviesRepository` that replays scripted updates and a final error, recording its calls.
struct StubMoviesRepository: MoviesRepository {
    let pages: [Fetched<MoviesPage>]
    let failure: MoviesError?
    /// What `lookupSearch` finds.
    let cached: CachedAnswer?
    private let calls = CallLog()

    init(pages: [Fetched<MoviesPage>], failure: MoviesError? = nil, cached: CachedAnswer? = nil) {
        self.pages = pages
        self.failure = failure
        self.cached = cached
    }

    func lookupSearch(_ request: SearchRequest) async -> CacheLookup {
        await calls.record(request)
        return CacheLookup(cached.map { .answer($0) } ?? .missing, maxStaleSeconds: 0)
    }

    func searchMovies(_ request: SearchRequest, plan: FetchPlan, emit: EmitFetched<MoviesPage>) async throws {
        try await searchMovies(request, policy: .networkOnly, maxStaleSeconds: nil, emit: emit)
    }

    func lookupMovie(id: Int, language: String?) async -> CacheLookup { CacheLookup(.missing, maxStaleSeconds: 0) }

    func movieDetails(id: Int, language: String?, plan: FetchPlan, emit: EmitFetched<MovieDetails>) async throws {
        try await movieDetails(id: id, language: language, policy: .networkOnly, emit: emit)
    }

    var searchRequests: [SearchRequest] { get async { await calls.requests } }

    func searchMovies(_ request: SearchRequest, policy: FetchPolicy, maxStaleSeconds: Int?, emit: EmitFetched<MoviesPage>) async throws {
        await calls.record(request)
        for page in pages { await emit(page) }
        if let failure { throw failure }
    }

    func movieDetails(id: Int, language: String?, policy: FetchPolicy, emit: EmitFetched<MovieDetails>) async throws {
        throw MoviesError(code: .notFound, message: "stub", movieID: id)
    }
}

extension Fetched where Value == MoviesPage {
    static func page(_ number: Int, origin: Freshness.Origin) -> Fetched<MoviesPage> {
        Fetched(
            value: MoviesPage(page: number, totalPages: 3, totalResults: 3, movies: [Movie(id: number, title: "Movie \(number)")]),
            freshness: Freshness(origin: origin, fetchedAt: Date(timeIntervalSince1970: 0), ageSeconds: 0, stale: origin == .cache))
    }
}

actor CallLog {
    private(set) var requests: [SearchRequest] = []
    func record(_ request: SearchRequest) { requests.append(request) }
}
