import MoviesDomain
import MoviesWire

/// What can happen to the browse screen: the user's keys and mouse, the terminal's answers and size, time
/// passing, and the daemon's answers to the calls the screen asked for (`BrowseEffect`).
enum BrowseEvent: Sendable {
    /// A key press.
    case key(Key)
    /// A click or a turn of the wheel (SGR mouse mode).
    case mouse(MouseEvent)
    /// The browser was asked to open `link`; `failure` says why it could not be.
    case linkOpened(link: String, failure: String?)
    /// The terminal answered a query.
    case terminalReply(TerminalReply)
    /// The terminal's size changed (or was read at start).
    case resized(width: Int, height: Int)
    /// Time passed: deadlines (the search pause, the graphics probe) may have come.
    case tick
    /// A reply to the search `id`; `continues` when a fresher one follows.
    case searchReplied(id: Int, SearchReply, continues: Bool)
    /// The search `id` is over, with the error that ended it, if any.
    case searchEnded(id: Int, ClientError?)
    /// The recent queries, or why they could not be read.
    case recentQueriesLoaded(Result<[String], ClientError>)
    /// A reply to the details call `id`.
    case movieReplied(id: Int, MovieReply, continues: Bool)
    /// The details call `id` is over, with the error that ended it, if any.
    case movieEnded(id: Int, ClientError?)
    /// The poster of the details call `id`, or why there is none.
    case posterLoaded(id: Int, Result<PosterReply, ClientError>)
    /// A watchlist edit is done: the list's name, or the error.
    case watchlistEdited(WatchlistEdit, Result<String, ClientError>)
    /// An edit of the TMDB account's lists was recorded (on TMDB or pending), or failed.
    case accountEdited(AccountEdit, title: String?, Result<AccountEditReply, ClientError>)
}
