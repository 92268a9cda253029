import MoviesDomain

extension WatchlistRefresher {
    /// Every step that keeps the watchlists prefetched, as far as the cache knows them: page 1 of
    /// each query, its later pages up to the depth and the cached last page, each movie, and each
    /// cached movie's poster (when enabled). Steps appear once, in list order.
    func scheduledSteps() async -> [RefreshStep] {
        let lists = (try? await watchlists.watchlists()) ?? []
        var steps: [RefreshStep] = []
        var seen = Set<RefreshStep>()
        func add(_ step: RefreshStep) {
            if seen.insert(step).inserted { steps.append(step) }
        }
        for list in lists {
            for entry in list.queries {
                add(.searchPage(entry.query, page: 1))
                guard entry.pages > 1, let request = try? SearchRequest(query: entry.query, page: 1, language: settings.language),
                      let cached = try? await FetchedUpdates.last(of: { try await movies.searchMovies(request, policy: .cacheOnly, maxStaleSeconds: nil, emit: $0) }) else { continue }
                let lastPage = min(entry.pages, cached.value.totalPages)
                if lastPage >= 2 {
                    for page in 2...lastPage { add(.searchPage(entry.query, page: page)) }
                }
            }
            for id in list.movieIDs {
                add(.movie(id: id))
                guard settings.posters,
                      let cached = try? await FetchedUpdates.last(of: { try await movies.movieDetails(id: id, language: settings.language, policy: .cacheOnly, emit: $0) }),
                      let path = cached.value.posterPath else { continue }
                add(.poster(path: path, size: settings.posterSize))
            }
        }
        return steps
    }

    /// Fetches and pins one step (for the scheduler).
    func refreshStep(_ step: RefreshStep) async throws {
        _ = try await fetch(step)
    }
}
