import MoviesDomain

/// What the browse screen asks the world to do after an event: daemon calls, whose answers come
/// back as `BrowseEvent`s, and the ends of the session.
enum BrowseEffect: Sendable, Hashable {
    /// A `Search` call, tagged with the id its replies carry back.
    case search(id: Int, SearchParameters)
    /// A `RecentQueries` call.
    case loadRecentQueries
    /// A `SaveRecentQuery` call: the user committed to this query.
    case saveRecentQuery(String)
    /// Open the address in the browser (`LinkOpener`), off the terminal's thread.
    case openLink(String)
    /// Put the text on the terminal's clipboard (OSC 52).
    case copyToClipboard(String)
    /// A `Movie` call (the daemon's default policy: cached, then fresh).
    case loadMovie(id: Int, movieID: Int)
    /// A `Poster` call for the details call `id`.
    case loadPoster(id: Int, path: String, width: Int)
    /// An `AddToWatchlist` call.
    case addToWatchlist(WatchlistEdit)
    /// An `AccountEdit` call (answers at once: on TMDB, or saved and pending).
    case editAccount(AccountEdit, title: String?)
    /// Stop the program until resumed (Ctrl-Z): the terminal is given back meanwhile.
    case suspend
    /// Draw the whole screen again (Ctrl-L).
    case redraw
    /// End the session with this exit status.
    case quit(ExitCode)
}
