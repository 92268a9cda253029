/// What a call to the daemon does, in words, for messages: people read "moviesd does not let this
/// user edit watchlists", never the internal method name (`AddToWatchlist`).
enum CallDescription {
    /// The action a call of `method` performs, as a verb phrase ("search", "add to a watchlist").
    static func action(_ method: String) -> String {
        switch method {
        case "Search": "search"
        case "Movie": "fetch a movie's details"
        case "Poster": "fetch a poster"
        case "RecentQueries": "list recent searches"
        case "Status": "report its status"
        case "Invalidate": "invalidate cached entries"
        case "Purge": "purge cached entries"
        case "Watchlists": "list watchlists"
        case "AddToWatchlist": "add to a watchlist"
        case "RemoveFromWatchlist": "remove from a watchlist"
        case "DeleteWatchlist": "delete a watchlist"
        case "Refresh": "refresh watchlists"
        case "AccountLogin": "sign in to TMDB"
        case "AccountLogout": "sign out of TMDB"
        case "AccountEdit": "edit the TMDB account's lists"
        case "Account": "show the TMDB account's lists"
        case "Pending": "list the account edits waiting for TMDB"
        case "Sync": "sync the TMDB account"
        case "UpdateCatalogue": "update the catalogue"
        default: "do that"
        }
    }
}
