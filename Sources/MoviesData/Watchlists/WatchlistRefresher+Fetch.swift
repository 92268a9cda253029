import FoundationEssentials
import MoviesDomain

extension WatchlistRefresher {
    /// Fetches one step from TMDB (posters: from the cache when present, they are immutable) and
    /// pins the stored entry.
    func fetch(_ step: RefreshStep) async throws -> RefreshStepOutcome {
        let outcome: RefreshStepOutcome
        switch step {
        case .searchPage(let query, let page):
            let request = try SearchRequest(query: query, page: page, language: settings.language)
            let fetched = try await Self.last(movies.searchMovies(request, policy: .networkOnly, maxStaleSeconds: nil))
            outcome = .page(totalPages: fetched.value.totalPages)
        case .movie(let id):
            let fetched = try await Self.last(movies.movieDetails(id: id, language: settings.language, policy: .networkOnly))
            outcome = .movie(posterPath: fetched.value.posterPath)
        case .poster(let path, let size):
            _ = try await Self.last(posterImages.posterImage(path: path, size: size, policy: .cacheFirst))
            outcome = .poster
        }
        try await responses.setPinned(true, keys: [step.cacheKey(language: settings.language)])
        return outcome
    }

    /// The last update of `stream`; throws its error, or `notCached` when it ended empty.
    static func last<Value: Sendable>(_ stream: FetchedStream<Value>) async throws -> Fetched<Value> {
        var last: Fetched<Value>?
        for try await update in stream { last = update }
        guard let last else { throw MoviesError.notCached("the refresh got no answer") }
        return last
    }
}
