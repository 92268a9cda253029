import MoviesDomain

/// The parameters of an `AddToWatchlist` or `RemoveFromWatchlist` reply: the list as it now is.
public struct WatchlistReply: Sendable, Hashable, Codable {
    /// The edited list.
    public var watchlist: Watchlist

    /// Creates a reply.
    public init(watchlist: Watchlist) { self.watchlist = watchlist }
}
