/// Lists and edits watchlists, validating names, queries and page depths.
public struct ManageWatchlistsUseCase: Sendable {
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
        return query
    }

    private static func validate(_ ids: [Int]) throws(MoviesError) {
        if let bad = ids.first(where: { $0 < 1 }) {
            throw MoviesError.invalidArgument("movie ids are positive, got \(bad)")
        }
    }
}
