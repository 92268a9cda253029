import MoviesDomain

/// The parameters of an `AddToWatchlist` or `RemoveFromWatchlist` reply: the list as it now is.
public struct WatchlistReply: Sendable, Hashable, Codable {
    /// The edited list.
    public var watchlist: Watchlist

    /// Creates a reply.
    public init(watchlist: Watchlist) { self.watchlist = watchlist }
}

/// The parameters of a `Watchlists` reply.
public struct WatchlistsReply: Sendable, Hashable, Codable {
    /// Every watchlist, by name.
    public var watchlists: [Watchlist]

    /// Creates a reply.
    public init(watchlists: [Watchlist]) { self.watchlists = watchlists }
}

/// One reply of a `Refresh` call: a step's progress, or (last) the summary.
public struct RefreshReply: Sendable, Hashable, Codable {
    /// The step just done, on intermediate replies.
    public var progress: RefreshProgress?
    /// The outcome, on the final reply.
    public var summary: RefreshSummary?

    /// Creates a reply.
    public init(progress: RefreshProgress? = nil, summary: RefreshSummary? = nil) {
        self.progress = progress
        self.summary = summary
    }
}
