import MoviesWire
import Varlink

extension VarlinkMoviesClient {
    /// Calls `Watchlists` (with `allUsers: true`: every user's lists, root only).
    public func watchlists(allUsers: Bool) throws(ClientError) -> ClientReply<WatchlistsReply> {
        try single("Watchlists", allUsers ? ["allUsers": .bool(true)] : [:], as: WatchlistsReply.self)
    }

    /// Calls `AddToWatchlist`.
    public func addToWatchlist(_ edit: WatchlistEdit) throws(ClientError) -> ClientReply<WatchlistReply> {
        var arguments = Self.arguments(of: edit)
        if let pages = edit.pages { arguments["pages"] = .int(Int64(pages)) }
        return try single("AddToWatchlist", arguments, as: WatchlistReply.self)
    }

    /// Calls `RemoveFromWatchlist`.
    public func removeFromWatchlist(_ edit: WatchlistEdit) throws(ClientError) -> ClientReply<WatchlistReply> {
        try single("RemoveFromWatchlist", Self.arguments(of: edit), as: WatchlistReply.self)
    }

    /// Calls `DeleteWatchlist`.
    public func deleteWatchlist(name: String) throws(ClientError) -> ClientReply<EmptyReply> {
        try single("DeleteWatchlist", ["name": .string(name)], as: EmptyReply.self)
    }

    /// Calls `Refresh` with `more`: one reply per step, then the summary; `all` fetches every
    /// entry again instead of what is due.
    public func refresh(watchlist: String?, all: Bool, onReply: (ClientReply<RefreshReply>) -> Void) throws(ClientError) {
        var parameters: [String: JSONValue] = watchlist.map { ["watchlist": .string($0)] } ?? [:]
        if all { parameters["all"] = .bool(true) }
        try stream("Refresh", parameters, more: true, as: RefreshReply.self, onReply: onReply)
    }

    private static func arguments(of edit: WatchlistEdit) -> [String: JSONValue] {
        var arguments: [String: JSONValue] = ["name": .string(edit.name)]
        if !edit.queries.isEmpty { arguments["queries"] = .array(edit.queries.map { .string($0) }) }
        if !edit.movieIDs.isEmpty { arguments["movieIds"] = .array(edit.movieIDs.map { .int(Int64($0)) }) }
        return arguments
    }
}
