/// Lists and edits watchlists in a call's `OwnerScope`, validating names, queries, page depths,
/// the documented limits and each user's quotas (`UserQuotas`).
///
/// Which list a name means (`owner(of:in:)`): the owner the call names; otherwise the caller's
/// personal list of that name if there is one, else the system list of that name when the caller
/// administers it and it exists, else (to be created) the caller's personal one. Nothing in an
/// answer depends on another user's lists, nor does its time: a call reads the lists of the owners
/// it concerns alone (`WatchlistRepository.watchlists(of:)`).
public struct ManageWatchlistsUseCase: Sendable {
    /// The most system watchlists kept.
    public static let maxWatchlists = 100
    /// The most queries in one watchlist (each refresh fetches up to `pages` pages of each).
    public static let maxQueriesPerWatchlist = 500
    /// The most movie ids in one watchlist.
    public static let maxMoviesPerWatchlist = 1_000
    /// The longest query accepted, in characters (TMDB's own search box takes fewer).
    public static let maxQueryLength = 200

    private let repository: any WatchlistRepository
    /// Each user's share of personal lists and entries.
    public let quotas: UserQuotas

    /// Creates the use case.
    public init(repository: any WatchlistRepository, quotas: UserQuotas = UserQuotas()) {
        self.repository = repository
        self.quotas = quotas
    }

    /// The lists `scope` sees: every system list, then the caller's own (a caller nobody knows
    /// sees the system's only); every user's for root's `allUsers`.
    public func list(in scope: OwnerScope) async throws -> [Watchlist] {
        guard let owners = scope.listed else { return try await repository.watchlists() }
        return try await repository.watchlists(of: owners).filter { owners.contains($0.owner) }
    }

    /// The owner of the list `name` a call in `scope` means (see the type's summary).
    public func owner(of name: String, in scope: OwnerScope) async throws -> Owner {
        if let named = scope.named { return named }
        let candidates = scope.administered
        guard let own = candidates.first else { throw MoviesError.permissionDenied("a caller without credentials owns nothing") }
        let lists = try await repository.watchlists(of: Set(candidates))
        return candidates.first { owner in lists.contains { $0.name == name && $0.owner == owner } } ?? own
    }

    /// Adds `queries` (each with `pages` depth, default 3) and `movieIDs` to the list `name` that
    /// a call in `scope` means.
    public func add(to name: String, in scope: OwnerScope, queries: [String], movieIDs: [Int], pages: Int?) async throws -> Watchlist {
        let name = try Watchlist.validatedName(name)
        let entries = try queries.map { text throws(MoviesError) in
            try WatchlistQuery(query: Self.query(text), pages: pages ?? WatchlistQuery.defaultPages)
        }
        try Self.validate(movieIDs)
        guard !entries.isEmpty || !movieIDs.isEmpty else {
            throw MoviesError.invalidArgument("give at least one query or movie id to add")
        }
        let owner = try await owner(of: name, in: scope)
        try await checkLimits(adding: entries, movieIDs: movieIDs, to: name, of: owner)
        return try await repository.add(to: name, owner: owner, queries: entries, movieIDs: movieIDs)
    }

    /// Removes `queries` and `movieIDs` from the list `name` that a call in `scope` means.
    public func remove(from name: String, in scope: OwnerScope, queries: [String], movieIDs: [Int]) async throws -> Watchlist {
        let name = try Watchlist.validatedName(name)
        let removed = try queries.map { text throws(MoviesError) in try Self.query(text) }
        let owner = try await owner(of: name, in: scope)
        return try await repository.remove(from: name, owner: owner, queries: removed, movieIDs: movieIDs)
    }

    /// Deletes the list `name` that a call in `scope` means; throws `noSuchWatchlist` (not found)
    /// when there is no such list.
    public func delete(_ name: String, in scope: OwnerScope) async throws {
        let name = try Watchlist.validatedName(name)
        let owner = try await owner(of: name, in: scope)
        guard try await repository.delete(name, owner: owner) else {
            throw MoviesError.noSuchWatchlist(name)
        }
    }

    /// What a call in `scope` refreshes: the list `name` it means, or (without a name) every list
    /// the caller manages (`OwnerScope.refreshed`).
    public func refreshTarget(_ name: String?, in scope: OwnerScope) async throws -> RefreshTarget {
        guard let name else { return RefreshTarget(owners: scope.refreshed) }
        let valid = try Watchlist.validatedName(name)
        return RefreshTarget(owners: [try await owner(of: valid, in: scope)], name: valid)
    }

    private static func query(_ text: String) throws(MoviesError) -> MovieQuery {
        guard let query = MovieQuery(text) else { throw MoviesError.invalidArgument("a watchlist query must not be empty") }
        guard query.query.count <= maxQueryLength else {
            throw MoviesError.invalidArgument("a watchlist query is at most \(maxQueryLength) characters, got \(query.query.count)")
        }
        return query
    }

    /// Refuses an addition that would take `owner`'s list `name`, their number of lists or (for a
    /// user) their entries past the limits.
    private func checkLimits(adding entries: [WatchlistQuery], movieIDs: [Int], to name: String, of owner: Owner) async throws {
        let lists = try await repository.watchlists(of: [owner]).filter { $0.owner == owner }
        let existing = lists.first { $0.name == name }
        if existing == nil, owner == .system, lists.count >= Self.maxWatchlists {
            throw MoviesError.invalidArgument("there are already \(Self.maxWatchlists) system watchlists, the most kept; delete one first")
        }
        if existing == nil, owner != .system, lists.count >= quotas.watchlists {
            throw quotas.exceeded("WatchlistsPerUser", maximum: quotas.watchlists, "you have \(lists.count) watchlists, your share", "delete one first")
        }
        let queries = Set((existing?.queries ?? []).map(\.query.canonical)).union(entries.map(\.query.canonical))
        if queries.count > Self.maxQueriesPerWatchlist {
            throw MoviesError.invalidArgument("a watchlist holds at most \(Self.maxQueriesPerWatchlist) queries; '\(name)' would hold \(queries.count)")
        }
        let movies = Set(existing?.movieIDs ?? []).union(movieIDs)
        if movies.count > Self.maxMoviesPerWatchlist {
            throw MoviesError.invalidArgument("a watchlist holds at most \(Self.maxMoviesPerWatchlist) movies; '\(name)' would hold \(movies.count)")
        }
        guard owner != .system else { return }
        let others = lists.filter { $0.name != name }.reduce(0) { $0 + $1.queries.count + $1.movieIDs.count }
        let total = others + queries.count + movies.count
        if total > quotas.entries {
            throw quotas.exceeded("EntriesPerUser", maximum: quotas.entries, "your watchlists would hold \(total) queries and movies, more than your share", "remove some first")
        }
    }

    private static func validate(_ ids: [Int]) throws(MoviesError) {
        if let bad = ids.first(where: { $0 < 1 }) {
            throw MoviesError.invalidArgument("movie ids are positive, got \(bad)")
        }
    }
}
