import MoviesDomain
import MoviesWire

/// Type-ahead and the search pause: every change of the query asks the local index at once and
/// schedules the daemon's default-policy search for the end of the typing pause.
extension BrowseModel {
    /// The query changed at `now`: a new generation, a local search at once, the full search after
    /// the pause (`searchNow`: at once, for a query chosen whole, as a recent one).
    mutating func queryChanged(now: UInt64, searchNow immediately: Bool = false) -> [BrowseEffect] {
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
        var effects: [BrowseEffect] = [.search(id: id, SearchParameters(query: state.query.trimmed, policy: .localOnly))]
        if immediately {
            state.searchDueAt = nil
            effects += searchNow()
        } else {
            state.searchDueAt = now + Self.searchPauseNanoseconds
        }
        return effects
    }

    /// Asks the daemon for the query's first page with its default policy.
    mutating func searchNow() -> [BrowseEffect] {
        let query = state.query.trimmed
        guard !query.isEmpty else { return [] }
        let id = makeID()
        state.searchID = id
        return [.search(id: id, SearchParameters(query: query))]
    }

    mutating func searchReplied(id: Int, _ reply: SearchReply, continues: Bool) -> [BrowseEffect] {
        if id == state.typeaheadID {
            // The local index answers only until the daemon's search did.
            if let results = state.results, results.generation == state.generation, results.source == .search { return [] }
            show(reply, source: .localIndex, continues: false)
        } else if id == state.searchID {
            show(reply, source: .search, continues: continues)
        } else if let load = state.pageLoad, load.id == id, var results = state.currentResults {
            results.insert(reply.page)
            state.results = results
        }
        return []
    }

    mutating func searchEnded(id: Int, _ error: ClientError?) -> [BrowseEffect] {
        if id == state.pageLoad?.id {
            state.pageLoad = nil
            if let error { state.message = "The next page could not be loaded: \(error.message)" }
            return []
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

    /// Shows `reply` as the list for the current query. The position (selected row, scroll) is
    /// kept when the same query's list is replaced (cached by fresh, local by TMDB's), as a list
    /// reloaded under the reader keeps its offset in the seed app.
    private mutating func show(_ reply: SearchReply, source: ResultList.Source, continues: Bool) {
        let previous = state.currentResults
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
        clampSelection()
    }
}

extension String {
    /// The query as searched: spaces at either end removed.
    var trimmed: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
