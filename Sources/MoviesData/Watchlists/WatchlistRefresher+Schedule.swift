import MoviesDomain

extension WatchlistRefresher {
    /// Every step that keeps the watchlists prefetched, as far as the cache knows them: page 1 of
    /// each query, its later pages up to the depth and the cached last page, each movie, and each
    /// cached movie's poster (when enabled). Steps appear once, in list order, with the owners of
    /// the lists that hold them.
    func scheduledSteps() async -> [ScheduledStep] {
        let lists = (try? await watchlists.watchlists()) ?? []
        var steps: [ScheduledStep] = []
        var positions: [RefreshStep: Int] = [:]
        func add(_ step: RefreshStep, of owner: Owner) {
            if let position = positions[step] {
                steps[position].owners.insert(owner)
            } else {
                positions[step] = steps.count
                steps.append(ScheduledStep(step: step, owners: [owner]))
            }
        }
        for list in lists {
            for entry in list.queries {
                add(.searchPage(entry.query, page: 1), of: list.owner)
                guard entry.pages > 1, let request = try? SearchRequest(query: entry.query, page: 1, language: settings.language),
                      let cached = try? await FetchedUpdates.last(of: { try await movies.searchMovies(request, policy: .cacheOnly, maxStaleSeconds: nil, emit: $0) }) else { continue }
                let lastPage = min(entry.pages, cached.value.totalPages)
                if lastPage >= 2 {
                    for page in 2...lastPage { add(.searchPage(entry.query, page: page), of: list.owner) }
                }
            }
            for id in list.movieIDs {
                add(.movie(id: id), of: list.owner)
                guard settings.posters,
                      let cached = try? await FetchedUpdates.last(of: { try await movies.movieDetails(id: id, language: settings.language, policy: .cacheOnly, emit: $0) }),
                      let path = cached.value.posterPath else { continue }
                add(.poster(path: path, size: settings.posterSize), of: list.owner)
            }
        }
        return steps
    }

    /// Fetches one step (for the scheduler) and pins it for its owners, if one of them keeps it:
    /// one that pins it already, or has room for it (a cached entry is pinned first; an entry not
    /// cached is fetched for an owner whose pins are not full). An entry beyond every owner's
    /// budget is left alone: fetching it would only push other pages out of the cache.
    func refreshStep(_ scheduled: ScheduledStep) async throws {
        let key = scheduled.step.cacheKey(language: settings.language)
        let cached = (try? await responses.response(forKey: key)) != nil
        var keepers: [Owner] = []
        for owner in scheduled.owners {
            if cached {
                let pinned = try? await responses.pin([key], for: owner, within: settings.pinBudget.bytes(for: owner), replacing: false)
                if pinned?.refused == 0 { keepers.append(owner) }
            } else if !pinsFull.contains(owner) {
                keepers.append(owner)
            }
        }
        guard !keepers.isEmpty else { return }
        _ = try await fetch(scheduled.step)
        if !cached {
            for owner in keepers { await pinFetched(key, for: owner) }
        }
    }
}
