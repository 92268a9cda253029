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

    /// Enter: a recent query is searched again (and is the newest recent search again); a movie's
    /// details open (the query is saved to the recent searches: the user committed to it).
    mutating func choose(now: UInt64) -> [BrowseEffect] {
        if state.showsRecentQueries {
            guard state.recentQueries.indices.contains(state.selection) else { return [] }
            let query = state.recentQueries[state.selection]
            state.query = query
            state.savedQuery = query.trimmed
            return [.saveRecentQuery(query.trimmed)] + queryChanged(now: now, searchNow: true)
        }
        guard let movieID = selectedMovieID else { return [] }
        let id = makeID()
        state.details = MovieDetailsState(requestID: id, movieID: movieID, title: selectedTitle ?? "")
        state.screen = .details
        return saveQueryIfCommitted() + [.loadMovie(id: id, movieID: movieID)]
    }

    /// A command on a movie, from the list or its details; the listed query is saved to the recent
    /// searches (the user acted on one of its movies).
    mutating func movieCommand(_ letter: Character, movieID: Int, title: String?) -> [BrowseEffect] {
        let effects = movieCommandEffects(letter, movieID: movieID, title: title)
        return effects.isEmpty ? [] : saveQueryIfCommitted() + effects
    }

    /// `w`: the watchlist; `a`/`A`: on or off the TMDB watchlist; `f`/`F`: favourite or not; `o`:
    /// open its TMDB page in the browser; `y`: copy that page's address (OSC 52).
    private mutating func movieCommandEffects(_ letter: Character, movieID: Int, title: String?) -> [BrowseEffect] {
        let change: AccountEdit.Change
        switch letter {
        case "o":
            let link = TMDBLinks.moviePage(id: movieID)
            state.message = "Opening \(link)…"
            return [.openLink(link)]
        case "y":
            let link = TMDBLinks.moviePage(id: movieID)
            state.message = "Copied \(link) (if the terminal lets programs set the clipboard: OSC 52)"
            return [.copyToClipboard(link)]
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
