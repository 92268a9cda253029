/// Lists and edits watchlists, validating names, queries, page depths and the documented limits.
public struct ManageWatchlistsUseCase: Sendable {
    /// The most watchlists kept.
    public static let maxWatchlists = 100
    /// The most queries in one watchlist (each refresh fetches up to `pages` pages of each).
    public static let maxQueriesPerWatchlist = 500
    /// The most movie ids in one watchlist.
    public static let maxMoviesPerWatchlist = 1_000
    /// The longest query accepted, in characters (TMDB's own search box takes fewer).
    public static let maxQueryLength = 200

    private let repository: any WatchlistRepository

    /// Creates the use case.
    public init(repository: any WatchlistRepository) {
        self.repository = repository
    }

    /// Every watchlist, by name.
    public func list() async throws -> [Watchlist] {
        try await repository.watchlists()
    }

    /// Adds `queries` (each with `pages` depth, default 3) and `movieIDs` to `name`.
    public func add(to name: String, queries: [String], movieIDs: [Int], pages: Int?) async throws -> Watchlist {
        let name = try Watchlist.validatedName(name)
        let entries = try queries.map { text throws(MoviesError) in
            try WatchlistQuery(query: Self.query(text), pages: pages ?? WatchlistQuery.defaultPages)
        }
        try Self.validate(movieIDs)
        guard !entries.isEmpty || !movieIDs.isEmpty else {
            throw MoviesError.invalidArgument("give at least one query or movie id to add")
        }
        try await checkLimits(adding: entries, movieIDs: movieIDs, to: name)
        return try await repository.add(to: name, queries: entries, movieIDs: movieIDs)
    }

    /// Removes `queries` and `movieIDs` from `name`.
    public func remove(from name: String, queries: [String], movieIDs: [Int]) async throws -> Watchlist {
        let name = try Watchlist.validatedName(name)
        let removed = try queries.map { text throws(MoviesError) in try Self.query(text) }
        return try await repository.remove(from: name, queries: removed, movieIDs: movieIDs)
    }

    /// Deletes `name`; throws `noSuchWatchlist` (not found) when there is no such list.
    public func delete(_ name: String) async throws {
        let name = try Watchlist.validatedName(name)
        guard try await repository.delete(name) else {
            throw MoviesError.noSuchWatchlist(name)
        }
    }

    private static func query(_ text: String) throws(MoviesError) -> MovieQuery {
        guard let query = MovieQuery(text) else { throw MoviesError.invalidArgument("a watchlist query must not be empty") }
        guard query.query.count <= maxQueryLength else {
            throw MoviesError.invalidArgument("a watchlist query is at most \(maxQueryLength) characters, got \(query.query.count)")
        }
        return query
    }

    /// Refuses an addition that would take `name` (or the number of watchlists) past the limits.
    private func checkLimits(adding entries: [WatchlistQuery], movieIDs: [Int], to name: String) async throws {
        let lists = try await repository.watchlists()
        let existing = lists.first { $0.name == name }
        if existing == nil, lists.count >= Self.maxWatchlists {
            throw MoviesError.invalidArgument("there are already \(Self.maxWatchlists) watchlists, the most kept; delete one first")
        }
        let queries = Set((existing?.queries ?? []).map(\.query.canonical)).union(entries.map(\.query.canonical))
        if queries.count > Self.maxQueriesPerWatchlist {
            throw MoviesError.invalidArgument("a watchlist holds at most \(Self.maxQueriesPerWatchlist) queries; '\(name)' would hold \(queries.count)")
        }
        let movies = Set(existing?.movieIDs ?? []).union(movieIDs)
        if movies.count > Self.maxMoviesPerWatchlist {
            throw MoviesError.invalidArgument("a watchlist holds at most \(Self.maxMoviesPerWatchlist) movies; '\(name)' would hold \(movies.count)")
        }
    }

    private static func validate(_ ids: [Int]) throws(MoviesError) {
        if let bad = ids.first(where: { $0 < 1 }) {
            throw MoviesError.invalidArgument("movie ids are positive, got \(bad)")
        }
    }
}
