import Varlink
import MoviesDomain

/// The movie search screen's state, as in the seed's `MoviesListViewModel`: inputs (`didSearch`,
/// `didLoadNextPage`, `didCancelSearch`, `didSelectItem`) and outputs (items, loading, error,
/// `isEmpty`, a freshness line). It knows nothing of the terminal; views observe `didChange`.
final class SearchMoviesViewModel {
    private let client: any MoviesClient
    private let policy: FetchPolicy?
    private let maxStaleSeconds: Int?
    private let filters: SearchFilterOptions?
    private var pages: [MoviesPage] = []
    private var generation = 0

    // MARK: Outputs

    /// The query being shown.
    private(set) var query = ""
    /// The rows of every loaded page, in page order.
    private(set) var items: [MoviesListItemViewModel] = []
    /// What is being waited for, if anything.
    private(set) var loading: LoadingState?
    /// The error that ended the last load and left nothing usable to show, if any.
    private(set) var error: ClientError?
    /// The remote-only failure (TMDB unreachable, nothing fresh) after which cached data is shown.
    private(set) var staleFailure: ClientError?
    /// The `remoteError` of the last reply: it came from the cache because TMDB failed.
    private(set) var remoteError: String?
    /// Why the last reply, fetched from TMDB, could not be stored in the daemon's cache (so it will
    /// not be there offline); `nil` when it was stored or came from the cache.
    private(set) var notStored: StorageFault?
    /// Whether the shown items were found in the local index of cached movies (not TMDB's
    /// answer to the query, nor a cached copy of it).
    private(set) var isFromLocalIndex = false
    /// Whether a search of the cached movies only (`--local`) found nothing.
    private(set) var foundNothingLocally = false
    /// Where the shown items came from and how old they are.
    private(set) var freshnessLine: String?
    /// The item chosen with `didSelectItem(at:)`.
    private(set) var selectedItem: MoviesListItemViewModel?
    /// Called after every change of the outputs.
    var didChange: (() -> Void)?
    /// Called with each daemon reply's parameters and whether more replies follow (`--json`).
    var didReceiveReply: ((_ parameters: JSONValue, _ continues: Bool) -> Void)?

    /// Whether there is nothing to show.
    var isEmpty: Bool { items.isEmpty }
    /// The error as one line of text.
    var errorText: String? { error?.message }
    /// The last loaded page number (0 before any).
    var currentPage: Int { pages.last?.page ?? 0 }
    /// The number of pages the query has.
    var totalPageCount: Int { pages.last?.totalPages ?? 1 }
    /// Whether `didLoadNextPage` would load another page.
    var hasMorePages: Bool { currentPage < totalPageCount }
    /// Total results TMDB has for the query.
    var totalResults: Int { pages.last?.totalResults ?? 0 }

    /// Creates the view model over `client`, searching with `policy`, `maxStaleSeconds` and
    /// `filters` (language, region, year; `nil`: none).
    init(client: any MoviesClient, policy: FetchPolicy? = nil, maxStaleSeconds: Int? = nil, filters: SearchFilterOptions? = nil) {
        self.client = client
        self.filters = filters
        self.policy = policy
        self.maxStaleSeconds = maxStaleSeconds
    }

    // MARK: Inputs

    /// Starts a new search for `query` at `page`, replacing what is shown.
    func didSearch(query: String, page: Int = 1) {
        guard !query.isEmpty else { return }
        self.query = query
        pages = []
        items = []
        selectedItem = nil
        load(page: page, loading: .fullScreen)
    }

    /// Loads the page after the last one, when there is one and nothing is loading.
    func didLoadNextPage() {
        guard hasMorePages, loading == nil, !query.isEmpty else { return }
        load(page: currentPage + 1, loading: .nextPage)
    }

    /// Stops waiting: later replies to the current load are ignored.
    func didCancelSearch() {
        generation += 1
        loading = nil
        didChange?()
    }

    /// Chooses the item at `index` (ignored when out of range).
    func didSelectItem(at index: Int) {
        guard items.indices.contains(index) else { return }
        selectedItem = items[index]
        didChange?()
    }

    // MARK: Private

    private func load(page: Int, loading: LoadingState) {
        generation += 1
        let current = generation
        self.loading = loading
        error = nil
        staleFailure = nil
        remoteError = nil
        notStored = nil
        foundNothingLocally = false
        didChange?()
        let parameters = SearchParameters(
            query: query, page: page, policy: policy, maxStaleSeconds: maxStaleSeconds,
            language: filters?.language, region: filters?.region, year: filters?.year)
        var lastFreshness: Freshness?
        do {
            try client.search(parameters) { reply in
                guard current == generation else { return }
                didReceiveReply?(reply.parameters, reply.continues)
                lastFreshness = reply.value.freshness
                remoteError = reply.value.freshness.remoteError
                isFromLocalIndex = reply.value.freshness.origin == .localIndex
                notStored = reply.value.freshness.stored == false ? (reply.value.freshness.storageFault ?? .unavailable) : nil
                append(reply.value.page)
                freshnessLine = FreshnessLine.describe(
                    reply.value.freshness, refreshing: reply.continues, matches: reply.value.page.totalResults,
                    catalogue: reply.value.page.movies.contains { $0.catalogue == true })
                if !reply.continues { self.loading = nil }
                didChange?()
            }
        } catch let failure {
            guard current == generation else { return }
            if policy == .localOnly, case .notCached = failure {
                // Nothing among the cached movies matched: that is the answer, not an outage.
                isFromLocalIndex = true
                foundNothingLocally = true
                freshnessLine = nil
                append(MoviesPage(page: page, totalPages: 1, totalResults: 0, movies: []))
            } else if let lastFreshness, failure.isRemoteOnly, pages.contains(where: { $0.page == page }) {
                staleFailure = failure
                freshnessLine = FreshnessLine.describe(lastFreshness, failure: failure)
            } else {
                error = failure
            }
        }
        guard current == generation else { return }
        self.loading = nil
        didChange?()
    }

    private func append(_ page: MoviesPage) {
        pages = (pages.filter { $0.page != page.page } + [page]).sorted { $0.page < $1.page }
        items = pages.flatMap { $0.movies.map(MoviesListItemViewModel.init(movie:)) }
    }
}
