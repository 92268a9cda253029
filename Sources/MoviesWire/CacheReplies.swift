import MoviesDomain

/// The parameters of an `Invalidate` or `Purge` reply.
public struct CacheMaintenanceReply: Sendable, Hashable, Codable {
    /// How many entries were affected.
    public var entries: Int
    /// Of the purged entries, how many a watchlist had pinned (nil for `Invalidate`).
    public var pinned: Int?

    /// Creates a reply.
    public init(entries: Int, pinned: Int? = nil) {
        self.entries = entries
        self.pinned = pinned
    }
}

/// The parameters of a `RecentQueries` reply.
public struct RecentQueriesReply: Sendable, Hashable, Codable {
    /// Recent successful queries, newest first.
    public var queries: [String]

    /// Creates a reply.
    public init(queries: [String]) { self.queries = queries }
}

/// The parameters of a `ClearRecentQueries` reply.
public struct ClearRecentQueriesReply: Sendable, Hashable, Codable {
    /// How many of the caller's recent queries were forgotten.
    public var cleared: Int

    /// Creates a reply.
    public init(cleared: Int) { self.cleared = cleared }
}

/// The (empty) parameters of a reply that carries no data, such as `DeleteWatchlist`.
public struct EmptyReply: Sendable, Hashable, Codable {
    /// Creates a reply.
    public init() {}
}

/// The parameters of an `UpdateCatalogue` reply.
public struct CatalogueUpdateReply: Sendable, Hashable, Codable {
    /// What the import changed.
    public var summary: CatalogueImportSummary

    /// Creates a reply.
    public init(summary: CatalogueImportSummary) { self.summary = summary }
}
