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
            let fetched = try await FetchedUpdates.last(of: { try await movies.searchMovies(request, policy: .networkOnly, maxStaleSeconds: nil, emit: $0) })
            outcome = .page(totalPages: fetched.value.totalPages)
        case .movie(let id):
            let fetched = try await FetchedUpdates.last(of: { try await movies.movieDetails(id: id, language: settings.language, policy: .networkOnly, emit: $0) })
            outcome = .movie(posterPath: fetched.value.posterPath)
        case .poster(let path, let size):
            _ = try await FetchedUpdates.last(of: { try await posterImages.posterImage(path: path, size: size, policy: .cacheFirst, emit: $0) })
            outcome = .poster
        }
        try await responses.setPinned(true, keys: [step.cacheKey(language: settings.language)])
        return outcome
    }
}
