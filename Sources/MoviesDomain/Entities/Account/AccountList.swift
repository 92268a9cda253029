/// One of the three movie lists of a TMDB account.
public enum AccountList: String, Sendable, Hashable, CaseIterable, Comparable, Codable {
    /// Movies the user wants to watch (TMDB's watchlist).
    case watchlist
    /// Favourite movies.
    case favorite
    /// Movies the user rated.
    case rated

    /// Watchlist, favourites, rated: the order lists are shown and pulled in.
    public static func < (lhs: AccountList, rhs: AccountList) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}
