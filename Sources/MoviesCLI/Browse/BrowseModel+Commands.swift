import MoviesDomain

/// Enter, and the commands that act on a movie: the watchlist, the TMDB account's lists.
extension BrowseModel {
    /// The movie id of the selected result row, when results are shown.
    var selectedMovieID: Int? {
        guard !state.showsRecentQueries, let results = state.results, results.movieIDs.indices.contains(state.selection) else { return nil }
        return results.movieIDs[state.selection]
    }

    /// The title of the selected result row.
    var selectedTitle: String? {
        guard !state.showsRecentQueries, let results = state.results, results.items.indices.contains(state.selection) else { return nil }
        return results.items[state.selection].title
    }

    /// Enter: a recent query is searched again; a movie's details open.
    mutating func choose(now: UInt64) -> [BrowseEffect] {
        if state.showsRecentQueries {
            guard state.recentQueries.indices.contains(state.selection) else { return [] }
            state.query = state.recentQueries[state.selection]
            return queryChanged(now: now, searchNow: true)
        }
        guard let movieID = selectedMovieID else { return [] }
        let id = makeID()
        state.details = MovieDetailsState(requestID: id, movieID: movieID, title: selectedTitle ?? "")
        state.screen = .details
        return [.loadMovie(id: id, movieID: movieID)]
    }

    /// `w`: the watchlist; `a`/`A`: on or off the TMDB watchlist; `f`/`F`: favourite or not.
    mutating func movieCommand(_ letter: Character, movieID: Int, title: String?) -> [BrowseEffect] {
        let change: AccountEdit.Change
        switch letter {
        case "w":
            state.message = "Adding to the watchlist '\(watchlistName)'…"
            return [.addToWatchlist(WatchlistEdit(name: watchlistName, movieIDs: [movieID]))]
        case "a": change = .watchlist(true)
        case "A": change = .watchlist(false)
        case "f": change = .favorite(true)
        case "F": change = .favorite(false)
        default:
            state.message = "No command on '\(TextFitting.printable(String(letter)))'; ? lists the keys."
            return []
        }
        guard let edit = try? AccountEdit(movieID: movieID, change: change) else { return [] }
        state.message = AccountSyncLine.describe(edit, title: title).prefix(1).uppercased() + AccountSyncLine.describe(edit, title: title).dropFirst() + "…"
        return [.editAccount(edit, title: title)]
    }
}
