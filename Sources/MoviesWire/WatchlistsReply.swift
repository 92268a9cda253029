import MoviesDomain

/// The parameters of a `Watchlists` reply.
public struct WatchlistsReply: Sendable, Hashable, Codable {
    /// Every watchlist, by name.
    public var watchlists: [Watchlist]

    /// Creates a reply.
    public init(watchlists: [Watchlist]) { self.watchlists = watchlists }
}
