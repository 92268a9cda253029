/// Lists and edits watchlists for a caller, validating names, queries, page depths, ownership
/// (`Caller.mayManage`), the documented limits and each user's quotas (`UserQuotas`).
///
/// Which list a name means (`owner(of:requested:for:)`): the owner the call asks for, when it may
/// manage it; otherwise the caller's personal list of that name if there is one, else the system
/// list of that name when the caller administers it and it exists, else (to be created) the
/// caller's personal one. Nothing in an answer depends on another user's lists, nor does its time:
/// a call reads the lists of the owners it concerns alone (`WatchlistRepository.watchlists(of:)`).
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

    /// The lists `caller` sees: every system list, then the caller's own (a caller nobody knows
    /// sees the system's only); with `allUsers`, root sees every user's personal lists too (others
    /// asking for that are refused).
    public func list(for caller: Caller?, allUsers: Bool = false) async throws -> [Watchlist] {
        if allUsers, caller?.isRoot != true { throw MoviesError.permissionDenied("only root lists every user's watchlists") }
        if allUsers { return try await repository.watchlists() }
        let owners: Set<Owner> = caller.map { [.system, $0.personal] } ?? [.system]
        return try await repository.watchlists(of: owners).filter { owners.contains($0.owner) }
    }

    /// The owner of the list `name` a call of `caller` means (see the type's summary); `requested`
    /// is the owner the call names, if any.
    /// - Throws: `permissionDenied` when `caller` may not manage `requested`.
    public func owner(of name: String, requested: Owner?, for caller: Caller) async throws -> Owner {
        if let requested {
            guard caller.mayManage(requested) else { throw Self.denied(requested) }
            return requested
        }
        let lists = try await repository.watchlists(of: caller.isAdministrator ? [caller.personal, .system] : [caller.personal])
        if lists.contains(where: { $0.name == name && $0.owner == caller.personal }) { return caller.personal }
        if caller.isAdministrator, lists.contains(where: { $0.name == name && $0.owner == .system }) { return .system }
        return caller.personal
    }

    /// Adds `queries` (each with `pages` depth, default 3) and `movieIDs` to the list `name` that
    /// `caller` means (`owner` when the call names one).
    public func add(to name: String, owner requested: Owner? = nil, for caller: Caller, queries: [String], movieIDs: [Int], pages: Int?) async throws -> Watchlist {
        let name = try Watchlist.validatedName(name)
        let entries = try queries.map { text throws(MoviesError) in
            try WatchlistQuery(query: Self.query(text), pages: pages ?? WatchlistQuery.defaultPages)
        }
        try Self.validate(movieIDs)
        guard !entries.isEmpty || !movieIDs.isEmpty else {
            throw MoviesError.invalidArgument("give at least one query or movie id to add")
        }
        let owner = try await owner(of: name, requested: requested, for: caller)
        try await checkLimits(adding: entries, movieIDs: movieIDs, to: name, of: owner)
        return try await repository.add(to: name, owner: owner, queries: entries, movieIDs: movieIDs)
    }

    /// Removes `queries` and `movieIDs` from the list `name` that `caller` means.
    public func remove(from name: String, owner requested: Owner? = nil, for caller: Caller, queries: [String], movieIDs: [Int]) async throws -> Watchlist {
        let name = try Watchlist.validatedName(name)
        let removed = try queries.map { text throws(MoviesError) in try Self.query(text) }
        let owner = try await owner(of: name, requested: requested, for: caller)
        return try await repository.remove(from: name, owner: owner, queries: removed, movieIDs: movieIDs)
    }

    /// Deletes the list `name` that `caller` means; throws `noSuchWatchlist` (not found) when
    /// there is no such list.
    public func delete(_ name: String, owner requested: Owner? = nil, for caller: Caller) async throws {
        let name = try Watchlist.validatedName(name)
        let owner = try await owner(of: name, requested: requested, for: caller)
        guard try await repository.delete(name, owner: owner) else {
            throw MoviesError.noSuchWatchlist(name)
        }
    }

    /// What `caller` refreshes: the list `name` they mean, or (without a name) every list they
    /// manage: root every list, an administrator the system's and their own, a user their own.
    public func refreshTarget(_ name: String?, owner requested: Owner? = nil, for caller: Caller) async throws -> RefreshTarget {
        if let name {
            let name = try Watchlist.validatedName(name)
            return RefreshTarget(owners: [try await owner(of: name, requested: requested, for: caller)], name: name)
        }
        if let requested {
            guard caller.mayManage(requested) else { throw Self.denied(requested) }
            return RefreshTarget(owners: [requested])
        }
        if caller.isRoot { return .everything }
        return RefreshTarget(owners: caller.isAdministrator ? [.system, caller.personal] : [caller.personal])
    }

    private static func denied(_ owner: Owner) -> MoviesError {
        switch owner {
        case .system: .permissionDenied("only root, moviesd's user and the admin group change system watchlists")
        case .user: .permissionDenied("a personal watchlist is its owner's (and root's) alone")
        }
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
            throw MoviesError.quotaExceeded(
                "WatchlistsPerUser", maximum: quotas.watchlists,
                "you have \(lists.count) watchlists, your share (WatchlistsPerUser=\(quotas.watchlists)); delete one first")
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
            throw MoviesError.quotaExceeded(
                "EntriesPerUser", maximum: quotas.entries,
                "your watchlists would hold \(total) queries and movies, more than your share (EntriesPerUser=\(quotas.entries))")
        }
    }

    private static func validate(_ ids: [Int]) throws(MoviesError) {
        if let bad = ids.first(where: { $0 < 1 }) {
            throw MoviesError.invalidArgument("movie ids are positive, got \(bad)")
        }
    }
}
