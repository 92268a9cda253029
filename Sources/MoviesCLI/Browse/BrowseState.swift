import MoviesDomain

/// Everything the browse screen shows and waits for. Changed only by `BrowseModel.handle`.
struct BrowseState: Sendable, Hashable {
    /// A page load in flight: the one at a time infinite scroll allows.
    struct PageLoad: Sendable, Hashable {
        /// The search call's id.
        let id: Int
        /// The page asked for.
        let page: Int
    }

    /// A click on a row of the list.
    struct Click: Sendable, Hashable {
        /// The list's row (not the screen's).
        let row: Int
        /// When (monotonic nanoseconds).
        let at: UInt64
    }

    /// Rows the screen keeps for itself: the search bar and the status line above the list, the
    /// keys below.
    static let chromeRows = 3

    /// The screen shown.
    var screen: BrowseScreen = .list
    /// Where keys go on the list screen.
    var mode: BrowseMode = .query
    /// The query as typed, with the cursor where it is edited.
    var line = EditableLine()
    /// The query as typed (set: the cursor goes to its end).
    var query: String {
        get { line.text }
        set { line = EditableLine(newValue) }
    }
    /// The query last saved to the recent searches, once the user committed to it (opened or
    /// acted on one of its movies, or searched a recent one again): the searches while typing
    /// save nothing.
    var savedQuery: String?
    /// The row and time of the last click on the list, to tell a double click.
    var lastClick: Click?
    /// Counts query changes: replies for an older generation are stale.
    var generation = 0
    /// The results listed (for the current or, until the first answer comes, the previous query).
    var results: ResultList?
    /// The caller's recent queries, shown while the query is empty.
    var recentQueries: [String] = []
    /// Why the recent queries could not be read.
    var recentQueriesError: ClientError?
    /// The selected row of the list shown (results, or recent queries).
    var selection = 0
    /// The first row of the list shown.
    var scrollTop = 0
    /// The search call of the type-ahead in flight.
    var typeaheadID: Int?
    /// The default-policy search of the first page in flight.
    var searchID: Int?
    /// When the default-policy search of the query is due (the end of the typing pause).
    var searchDueAt: UInt64?
    /// The next page being loaded.
    var pageLoad: PageLoad?
    /// The error that ended the last search and left nothing to list.
    var searchError: ClientError?
    /// The details screen's movie.
    var details: MovieDetailsState?
    /// A one-line message for the bottom row (an edit's outcome, an error), until the next key.
    var message: String?
    /// The image protocol, once the terminal answered (or did not in time).
    var graphicsProbe = GraphicsProbe()
    /// When the graphics probe gives up.
    var graphicsDeadline: UInt64?
    /// The terminal's size.
    var width = 80
    var height = 24
    /// The id the next daemon call gets.
    var nextID = 1

    /// The image protocol, when the terminal has one.
    var graphics: GraphicsProtocol? {
        if case .supported(let graphics)? = graphicsProbe.result { return graphics }
        return nil
    }

    /// Rows available to the list.
    var listHeight: Int { max(1, height - Self.chromeRows) }

    /// Whether the list shows recent queries (the query is empty) rather than results.
    var showsRecentQueries: Bool { query.isEmpty }

    /// How many rows the list shown has.
    var listCount: Int { showsRecentQueries ? recentQueries.count : results?.items.count ?? 0 }

    /// The results for the current query, if they came.
    var currentResults: ResultList? {
        guard let results, results.generation == generation else { return nil }
        return results
    }
}
