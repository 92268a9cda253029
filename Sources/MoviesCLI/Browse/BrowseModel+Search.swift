import MoviesDomain
import MoviesWire

/// Type-ahead and the search pause: every change of the query asks the local index at once and
/// schedules the daemon's default-policy search for the end of the typing pause. None of these
/// searches is saved to the recent searches (`remember: false`): a half-typed word is not a
/// search the user made. A query is saved once the user commits to it (`saveQueryIfCommitted`).
extension BrowseModel {
    /// The query changed at `now`: a new generation, a local search at once, the full search after
    /// the pause (`searchNow`: at once, for a query chosen whole, as a recent one).
    mutating func queryChanged(now: UInt64, searchNow immediately: Bool = false, remember: Bool = false) -> [BrowseEffect] {
        state.generation += 1
        state.searchError = nil
        state.searchID = nil
        state.typeaheadID = nil
        state.pageLoad = nil
        state.scrollTop = 0
        state.selection = 0
        guard !state.query.trimmed.isEmpty else {
            state.searchDueAt = nil
            state.results = nil
            return state.query.isEmpty ? [.loadRecentQueries] : []
        }
        let id = makeID()
        state.typeaheadID = id
        var effects: [BrowseEffect] = [.search(id: id, parameters(state.query.trimmed, policy: .localOnly))]
        if immediately {
            state.searchDueAt = nil
            effects += searchNow(remember: remember)
        } else {
            state.searchDueAt = now + Self.searchPauseNanoseconds
        }
        return effects
    }

    /// Asks the daemon for the query's first page with the default policy (`movies.conf`'s, else
    /// the daemon's); `remember`: the daemon saves the query to the recent searches (a query the
    /// user gave whole, on the command line), else not.
    mutating func searchNow(remember: Bool = false) -> [BrowseEffect] {
        let query = state.query.trimmed
        guard !query.isEmpty else { return [] }
        let id = makeID()
        state.searchID = id
        if remember { state.savedQuery = query }
        return [.search(id: id, parameters(query, policy: searchDefaults.policy, remember: remember))]
    }

    /// The parameters of a search of `query` with `policy`, in the configured language and region.
    func parameters(_ query: String, page: Int = 1, policy: FetchPolicy?, remember: Bool = false) -> SearchParameters {
        var parameters = SearchParameters(
            query: query, page: page, policy: policy, language: searchDefaults.language, region: searchDefaults.region)
        parameters.remember = remember
        return parameters
    }

    /// Saves the listed query to the recent searches when the user commits to it (opens or acts on
    /// one of its movies), once per query: as a shell's history records the command run, not
    /// what was typed on the way.
    mutating func saveQueryIfCommitted() -> [BrowseEffect] {
        guard let query = state.results?.query, !query.isEmpty, state.savedQuery != query else { return [] }
        state.savedQuery = query
        return [.saveRecentQuery(query)]
    }

    mutating func searchReplied(id: Int, _ reply: SearchReply, continues: Bool) -> [BrowseEffect] {
        if id == state.typeaheadID {
            // The local index answers only until the daemon's search did.
            if let results = state.results, results.generation == state.generation, results.source == .search { return [] }
            show(reply, source: .localIndex, continues: false)
            return nextPageIfAtEnd()
        } else if id == state.searchID {
            show(reply, source: .search, continues: continues)
            return nextPageIfAtEnd()
        } else if let load = state.pageLoad, load.id == id, var results = state.currentResults {
            results.insert(reply.page)
            state.results = results
        }
        return []
    }

    mutating func searchEnded(id: Int, _ error: ClientError?) -> [BrowseEffect] {
        if id == state.pageLoad?.id {
            state.pageLoad = nil
            if let error {
                state.message = "The next page could not be loaded: \(error.message)"
                return []
            }
            // The screen may still have rows to fill.
            return nextPageIfAtEnd()
        }
        if id == state.typeaheadID {
            state.typeaheadID = nil
            if let error, state.currentResults == nil, state.searchID == nil, state.searchDueAt == nil {
                state.searchError = error.isRemoteOnly ? nil : error
            }
            if case .notCached? = error, state.currentResults == nil {
                // Nothing cached matches: an empty list until the daemon's search answers.
                state.results = ResultList(generation: state.generation, query: state.query.trimmed, source: .localIndex)
                clampSelection()
            }
            return []
        }
        guard id == state.searchID else { return [] }
        state.searchID = nil
        guard let error else { return [] }
        if var results = state.currentResults, !results.items.isEmpty || results.freshness != nil, error.isRemoteOnly {
            results.failure = error
            results.refreshing = false
            state.results = results
        } else {
            state.searchError = error
        }
        return []
    }

    /// Shows `reply` as the list for the current query. When the same query's list is replaced
    /// (cached by fresh, local by TMDB's), the selected movie stays selected, on the same row of
    /// the screen where it can, so Enter opens the movie the user chose; a movie no longer listed
    /// leaves the selection on the same row.
    private mutating func show(_ reply: SearchReply, source: ResultList.Source, continues: Bool) {
        let previous = state.currentResults
        let selectedID = previous.flatMap { $0.movieIDs.indices.contains(state.selection) ? $0.movieIDs[state.selection] : nil }
        let rowOnScreen = state.selection - state.scrollTop
        var results = ResultList(generation: state.generation, query: state.query.trimmed, source: source)
        if let previous, previous.source == source {
            // The same pages again, fresher: later pages stay.
            for page in previous.pages.values where page.page != reply.page.page { results.insert(page) }
        }
        results.insert(reply.page)
        results.freshness = reply.freshness
        results.refreshing = continues
        state.results = results
        state.searchError = nil
        if let previous, previous.source != source {
            // A page of the local index's list is no longer wanted once TMDB's list replaced it.
            state.pageLoad = nil
        }
        if let selectedID, let row = results.movieIDs.firstIndex(of: selectedID) {
            state.selection = row
            state.scrollTop = row - rowOnScreen
        }
        clampSelection()
    }
}

extension String {
    /// The query as searched: spaces at either end removed.
    var trimmed: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
