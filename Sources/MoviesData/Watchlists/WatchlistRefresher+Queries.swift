import MoviesDomain

extension WatchlistRefresher {
    /// Fetches the search pages of `queries`, up to `settings.concurrentQueries` queries at once.
    /// Each query's pages are fetched in order, one at a time: a page's `total_pages` bounds the
    /// next, and the pages beyond TMDB's last one are skipped, not fetched.
    /// The keys of the pages gone through are added to `tally` query by query, in list order.
    func refreshQueries(_ queries: [WatchlistQuery], owner: Owner, runID: Int, mode: RefreshMode, tally: inout RefreshTally) async throws {
        guard !queries.isEmpty else { return }
        var lastPages = queries.map(\.pages)
        var keys = Array(repeating: [String](), count: queries.count)
        defer { tally.keys += keys.joined() }
        var pending = queries.indices.map { QueryPage(query: $0, page: 1) }
        var nextPending = 0
        try await withThrowingTaskGroup(of: (QueryPage, Result<RefreshStepDone, MoviesError>).self) { group in
            var inFlight = 0
            while true {
                while inFlight < settings.concurrentQueries, nextPending < pending.count {
                    try Task.checkCancellation()
                    let item = pending[nextPending]
                    nextPending += 1
                    let step = RefreshStep.searchPage(queries[item.query].query, page: item.page)
                    group.addTask { (item, await self.attempt(step, owner: owner, mode: mode)) }
                    inFlight += 1
                }
                guard let (item, result) = try await group.next() else { return }
                inFlight -= 1
                let entry = queries[item.query]
                let step = RefreshStep.searchPage(entry.query, page: item.page)
                if let key = RefreshTally.key(of: step, result, language: settings.language) { keys[item.query].append(key) }
                if case .page(let totalPages)? = record(result, tally: &tally) {
                    lastPages[item.query] = min(entry.pages, max(1, totalPages))
                }
                report(runID, tally.progress(step.label))
                guard item.page < entry.pages else { continue }
                if item.page < lastPages[item.query] {
                    pending.append(QueryPage(query: item.query, page: item.page + 1))
                } else {
                    for page in (item.page + 1)...entry.pages {
                        tally.skipped += 1
                        report(runID, tally.progress(RefreshStep.searchPage(entry.query, page: page).label + " (beyond the last page)"))
                    }
                }
            }
        }
    }
}

/// One search page of a watchlist refresh: the query's index in its list and the page number.
private struct QueryPage: Sendable {
    let query: Int
    let page: Int
}
