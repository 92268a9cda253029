import MoviesDomain

/// The cache keys a watchlist pins: every search page up to each query's depth and each movie's
/// details (in TMDB's default language, as the refresher fetches them).
public enum WatchlistCacheKeys {
    /// The keys of `watchlist`'s entries.
    public static func keys(of watchlist: Watchlist, language: String? = nil) -> Set<String> {
        var keys = Set<String>()
        for entry in watchlist.queries {
            for page in 1...max(1, entry.pages) { keys.insert(CacheKey.search(entry.query, page: page, language: language)) }
        }
        for id in watchlist.movieIDs { keys.insert(CacheKey.movie(id: id, language: language)) }
        return keys
    }

    /// The keys of `watchlists` together.
    public static func keys(of watchlists: [Watchlist], language: String? = nil) -> Set<String> {
        watchlists.reduce(into: Set<String>()) { $0.formUnion(keys(of: $1, language: language)) }
    }
}
