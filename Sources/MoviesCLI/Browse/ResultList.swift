import MoviesDomain

/// The movies listed for one query: the pages loaded so far (from the local index or from the
/// daemon's search), where they came from, and how fresh they are.
struct ResultList: Sendable, Hashable {
    /// Which calls filled the list.
    enum Source: Sendable, Hashable {
        /// Type-ahead: the local index of cached movies (`local_only`).
        case localIndex
        /// The daemon's default policy (cached, then TMDB).
        case search
    }

    /// The query generation the list answers (`BrowseState.generation`).
    var generation: Int
    /// The query it answers.
    var query: String
    /// Where its pages came from.
    var source: Source
    /// The pages loaded, by page number.
    private(set) var pages: [Int: MoviesPage] = [:]
    /// The rows of every loaded page, in page order.
    private(set) var items: [MoviesListItemViewModel] = []
    /// The movies' ids, row by row.
    private(set) var movieIDs: [Int] = []
    /// The freshness of the last reply.
    var freshness: Freshness?
    /// Whether a fresher reply is still expected for the first page.
    var refreshing = false
    /// Why TMDB's answer did not come, when the list stands in for it.
    var failure: ClientError?

    /// An empty list for `query`.
    init(generation: Int, query: String, source: Source) {
        self.generation = generation
        self.query = query
        self.source = source
    }

    /// The highest page loaded (0 before any).
    var lastPage: Int { pages.keys.max() ?? 0 }
    /// The pages the query has, as the last page loaded says.
    var totalPages: Int { pages[lastPage]?.totalPages ?? 0 }
    /// The results the query has in all.
    var totalResults: Int { pages[lastPage]?.totalResults ?? 0 }
    /// Whether a page after the last loaded one exists (TMDB serves at most 500).
    var hasMorePages: Bool { lastPage < min(totalPages, SearchRequest.maxPage) && !items.isEmpty }

    /// Puts `page` in (replacing an earlier copy of the same page number).
    mutating func insert(_ page: MoviesPage) {
        pages[page.page] = page
        let ordered = pages.keys.sorted().compactMap { pages[$0] }
        var seen = Set<Int>()
        // A movie that moved between pages while they were fetched is listed once, where it came first.
        let movies = ordered.flatMap(\.movies).filter { seen.insert($0.id).inserted }
        items = movies.map(MoviesListItemViewModel.init(movie:))
        movieIDs = movies.map(\.id)
    }

    /// The line that says where the list came from, in the CLI's words (`FreshnessLine`).
    var freshnessLine: String? {
        guard var freshness else { return nil }
        if freshness.origin == .localIndex {
            if let failure, freshness.remoteError == nil { freshness.remoteError = failure.message }
            return FreshnessLine.describe(freshness, matches: totalResults, catalogue: items.contains(where: \.isCatalogueOnly))
        }
        if let failure { return FreshnessLine.describe(freshness, failure: failure) }
        return FreshnessLine.describe(freshness, refreshing: refreshing)
    }
}
