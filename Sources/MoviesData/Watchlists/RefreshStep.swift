import MoviesDomain

/// One fetch of a watchlist refresh: a search page, a movie's details or a poster.
enum RefreshStep: Sendable, Hashable {
    case searchPage(MovieQuery, page: Int)
    case movie(id: Int)
    case poster(path: String, size: PosterSize)

    /// The cache key the step fills (and pins).
    func cacheKey(language: String?) -> String {
        switch self {
        case .searchPage(let query, let page): CacheKey.search(query, page: page, language: language)
        case .movie(let id): CacheKey.movie(id: id, language: language)
        case .poster(let path, let size): CacheKey.poster(path: path, size: size)
        }
    }

    /// A short description for progress replies.
    var label: String {
        switch self {
        case .searchPage(let query, let page): "search \"\(query.query)\" page \(page)"
        case .movie(let id): "movie \(id)"
        case .poster(let path, _): "poster \(path)"
        }
    }
}

/// What one step produced.
enum RefreshStepOutcome: Sendable {
    /// A search page: its last page number, to bound the next pages.
    case page(totalPages: Int)
    /// A movie's details: its poster path, if any.
    case movie(posterPath: String?)
    /// A poster.
    case poster
}

/// A step that ended well: what it produced, and whether it was fetched from TMDB or left alone
/// because its cached entry is current; no outcome when it was left alone because its owner's
/// pins are full (`overBudget`).
struct RefreshStepDone: Sendable {
    let outcome: RefreshStepOutcome?
    let fetched: Bool

    /// Not fetched, nor read: the owner's pins reached their budget before it.
    static let overBudget = RefreshStepDone(outcome: nil, fetched: false)
}

/// A step the scheduler keeps current, and the owners whose lists hold it.
struct ScheduledStep: Sendable {
    let step: RefreshStep
    var owners: Set<Owner>
}
