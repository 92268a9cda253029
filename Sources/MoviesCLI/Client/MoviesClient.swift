import MoviesDomain
import MoviesWire

/// The daemon as the client's presentation layer sees it: one method per Varlink method.
///
/// Streaming calls deliver each reply to `onReply` as it arrives (the cached answer first, then the
/// fresh one) and return when the call is over; they throw a `ClientError` when it ended in error,
/// after any replies already delivered. Implementations: `VarlinkMoviesClient`, and a mock in tests.
public protocol MoviesClient {
    /// Searches for movies; with the default policy the cached page comes first, then the fresh one.
    func search(_ parameters: SearchParameters, onReply: (ClientReply<SearchReply>) -> Void) throws(ClientError)
    /// Fetches one movie's details in `language` (`nil`: the daemon's default), cached then fresh.
    func movie(id: Int, language: String?, policy: FetchPolicy?, onReply: (ClientReply<MovieReply>) -> Void) throws(ClientError)
    /// Fetches a poster image at the TMDB size nearest to `width`.
    func poster(path: String, width: Int?) throws(ClientError) -> ClientReply<PosterReply>
    /// The recent successful search queries, newest first.
    func recentQueries(limit: Int?) throws(ClientError) -> ClientReply<RecentQueriesReply>
    /// Saves `query` as the caller's newest recent search (one the user committed to).
    func saveRecentQuery(_ query: String) throws(ClientError) -> ClientReply<EmptyReply>
    /// Forgets the caller's own recent queries.
    func clearRecentQueries() throws(ClientError) -> ClientReply<ClearRecentQueriesReply>
    /// The daemon's version, uptime, remote state and cache statistics.
    func status() throws(ClientError) -> ClientReply<StatusReply>
    /// `UpdateCatalogue`: downloads and imports TMDB's newest daily ID export.
    func updateCatalogue() throws(ClientError) -> ClientReply<CatalogueUpdateReply>
    /// Invalidates or purges cached entries (authorised callers only).
    func maintainCache(_ operation: CacheOperation, selection: CacheSelection) throws(ClientError) -> ClientReply<CacheMaintenanceReply>
    /// The system's watchlists and the caller's own; with `allUsers`, every user's too (root only).
    func watchlists(allUsers: Bool) throws(ClientError) -> ClientReply<WatchlistsReply>
    /// Adds queries and movies to a watchlist, creating it (authorised callers only).
    func addToWatchlist(_ edit: WatchlistEdit) throws(ClientError) -> ClientReply<WatchlistReply>
    /// Removes queries and movies from a watchlist (authorised callers only).
    func removeFromWatchlist(_ edit: WatchlistEdit) throws(ClientError) -> ClientReply<WatchlistReply>
    /// Deletes a watchlist (authorised callers only).
    func deleteWatchlist(name: String) throws(ClientError) -> ClientReply<EmptyReply>
    /// Refreshes one watchlist (all when `nil`), delivering each progress reply, then the summary.
    func refresh(watchlist: String?, all: Bool, onReply: (ClientReply<RefreshReply>) -> Void) throws(ClientError)
    /// Signs in to TMDB, or learns where to approve the sign-in.
    func accountLogin() throws(ClientError) -> ClientReply<AccountLoginReply>
    /// Signs out of TMDB.
    func accountLogout() throws(ClientError) -> ClientReply<AccountLogoutReply>
    /// Edits the account's lists (queued for TMDB; waits for it at most `waitSeconds`).
    func accountEdit(_ edit: AccountEdit, waitSeconds: Double?) throws(ClientError) -> ClientReply<AccountEditReply>
    /// The account's lists.
    func account() throws(ClientError) -> ClientReply<AccountReply>
    /// The outbox; `dismissRejected` forgets rejected entries first.
    func pending(dismissRejected: Bool) throws(ClientError) -> ClientReply<PendingReply>
    /// Sends and pulls now; with `waitSeconds`, until settled, blocked or out of time.
    func sync(waitSeconds: Double?) throws(ClientError) -> ClientReply<SyncReply>
    /// The daemon's metrics: every family and value of `io.systemd.Metrics`.
    func metrics() throws(ClientError) -> MetricsReport
    /// A client whose watchlist, refresh and account calls act on the system's (`--system`).
    func actingOnSystem() -> any MoviesClient
    /// A client whose watchlist edits and refreshes act on the personal watchlists of the user
    /// `uid` (`--owner`; the daemon lets only root act on another user's).
    func actingFor(owner uid: UInt32) -> any MoviesClient
}

extension MoviesClient {
    /// A client whose watchlist, refresh and account calls act on the system's (`system: true`)
    /// rather than the caller's own; this one, for clients that have no such choice (fakes).
    public func actingOnSystem() -> any MoviesClient { self }

    /// A client whose watchlist edits and refreshes act on `uid`'s watchlists (`owner: uid`); this
    /// one, for clients that have no such choice.
    public func actingFor(owner uid: UInt32) -> any MoviesClient { self }

    /// No metrics, for clients that have none (fakes).
    public func metrics() throws(ClientError) -> MetricsReport {
        throw .other("this client reports no metrics")
    }

    /// The system's watchlists and the caller's own.
    public func watchlists() throws(ClientError) -> ClientReply<WatchlistsReply> {
        try watchlists(allUsers: false)
    }
}
