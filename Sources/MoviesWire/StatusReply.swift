import MoviesDomain

/// The parameters of a `Status` reply.
public struct StatusReply: Sendable, Hashable, Codable {
    /// The daemon's version.
    public var version: String
    /// Seconds since the daemon started.
    public var uptimeSeconds: Int
    /// TMDB's reachability.
    public var remote: RemoteStatus
    /// The cache's size and composition.
    public var cache: CacheStats
    /// When the last watchlist refresh finished (RFC 3339), if ever.
    public var lastRefresh: String?
    /// The refresh engine's state, from daemons that have one.
    public var refresh: RefreshStatus?
    /// The local database's health, from daemons that report it.
    public var storage: StorageHealth?
    /// The caller's own TMDB account's outbox, from daemons with a TMDB credential.
    public var account: AccountSyncStatus?
    /// The system's TMDB account's outbox (the admin group's), for administrators only.
    public var systemAccount: AccountSyncStatus?
    /// What the catalogue holds, from daemons that have one.
    public var catalogue: CatalogueStatus?

    /// Creates a reply.
    public init(
        version: String, uptimeSeconds: Int, remote: RemoteStatus, cache: CacheStats, lastRefresh: String? = nil,
        refresh: RefreshStatus? = nil, storage: StorageHealth? = nil, account: AccountSyncStatus? = nil,
        systemAccount: AccountSyncStatus? = nil, catalogue: CatalogueStatus? = nil
    ) {
        self.catalogue = catalogue
        self.account = account
        self.systemAccount = systemAccount
        self.storage = storage
        self.refresh = refresh
        self.version = version
        self.uptimeSeconds = uptimeSeconds
        self.remote = remote
        self.cache = cache
        self.lastRefresh = lastRefresh
    }
}
