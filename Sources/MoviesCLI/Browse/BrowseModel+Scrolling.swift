import MoviesDomain

/// Moving in the list, and the infinite scroll: reaching the last row, or a list shorter than the
/// screen, loads the next page, one load at a time, up to the last page.
extension BrowseModel {
    mutating func move(by rows: Int) -> [BrowseEffect] {
        move(to: state.selection + rows)
    }

    mutating func move(to row: Int) -> [BrowseEffect] {
        state.selection = row
        clampSelection()
        return nextPageIfAtEnd()
    }

    /// Keeps the selection on a row and in view.
    mutating func clampSelection() {
        state.selection = max(0, min(state.selection, state.listCount - 1))
        keepSelectionVisible()
    }

    mutating func keepSelectionVisible() {
        let height = state.listHeight
        if state.selection < state.scrollTop { state.scrollTop = state.selection }
        if state.selection >= state.scrollTop + height { state.scrollTop = state.selection - height + 1 }
        state.scrollTop = max(0, min(state.scrollTop, max(0, state.listCount - height)))
    }

    /// The next page's load when the selection is on the last row or the rows loaded do not fill
    /// the list's height, more pages exist and no load is in flight.
    mutating func nextPageIfAtEnd() -> [BrowseEffect] {
        guard !state.showsRecentQueries, state.pageLoad == nil, let results = state.currentResults, results.hasMorePages,
              state.selection >= results.items.count - 1 || results.items.count < state.listHeight else { return [] }
        let id = makeID()
        let page = results.lastPage + 1
        state.pageLoad = BrowseState.PageLoad(id: id, page: page)
        let policy: FetchPolicy? = results.source == .localIndex ? .localOnly : searchDefaults.policy
        return [.search(id: id, parameters(results.query, page: page, policy: policy))]
    }
}
