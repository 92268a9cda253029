import FoundationEssentials
import MoviesDomain

extension WatchlistRefresher {
    /// Fetches `step` when it is due (or always, refreshing `.everything`) and pins it for `owner`
    /// at once; otherwise takes its outcome from the cache (the run pins it at its end).
    func fetchIfDue(_ step: RefreshStep, owner: Owner, mode: RefreshMode) async throws -> RefreshStepDone {
        if mode == .due, let outcome = try await currentOutcome(of: step) {
            return RefreshStepDone(outcome: outcome, fetched: false)
        }
        let outcome = try await fetch(step)
        await pinFetched(step.cacheKey(language: settings.language), for: owner)
        return RefreshStepDone(outcome: outcome, fetched: true)
    }

    /// The outcome of `step` read from the cache when its entry is current: fetched before and
    /// not yet due (`RefreshDue`, without jitter); posters, which never change, whenever cached.
    /// `nil` when it is due (or its cached value cannot be read). A cached "not found" (TMDB's
    /// authoritative 404, still fresh) is thrown, as a fetch would.
    func currentOutcome(of step: RefreshStep) async throws -> RefreshStepOutcome? {
        guard let entry = try? await responses.response(forKey: step.cacheKey(language: settings.language)) else { return nil }
        if case .poster = step {
            return .poster
        }
        guard RefreshDue.date(fetchedAt: entry.fetchedAt, expiresAt: entry.expiresAt, aheadFraction: settings.aheadFraction) > now() else { return nil }
        do {
            switch step {
            case .searchPage(let query, let page):
                let request = try SearchRequest(query: query, page: page, language: settings.language)
                let cached = try await FetchedUpdates.last(of: { try await movies.searchMovies(request, policy: .cacheOnly, maxStaleSeconds: nil, emit: $0) })
                return .page(totalPages: cached.value.totalPages)
            case .movie(let id):
                let cached = try await FetchedUpdates.last(of: { try await movies.movieDetails(id: id, language: settings.language, policy: .cacheOnly, emit: $0) })
                return .movie(posterPath: cached.value.posterPath)
            case .poster:
                return .poster
            }
        } catch let failure as MoviesError where failure.code == .notFound {
            throw failure
        } catch {
            return nil
        }
    }

    /// Fetches one step from TMDB (posters: from the cache when present, they are immutable).
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
        return outcome
    }
}
