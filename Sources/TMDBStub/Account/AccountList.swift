/// One of the account's movie lists, named as in TMDB's paths (`/3/account/{id}/{name}/movies`).
public enum AccountList: String, Sendable, CaseIterable {
    /// The movies the user wants to watch (`watchlist`).
    case watchlist
    /// The user's favourite movies (`favorite`).
    case favorite
    /// The movies the user rated (`rated`).
    case rated
}
