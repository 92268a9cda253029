/// A change the user asked for on the TMDB account: the state one list should have for one movie.
///
/// Always a state to reach ("on the watchlist"), never a toggle, so sending it twice is harmless.
public struct AccountEdit: Sendable, Hashable, CustomStringConvertible {
    /// The state asked for.
    public enum Change: Sendable, Hashable {
        /// On (`true`) or off the watchlist.
        case watchlist(Bool)
        /// A favourite (`true`) or not.
        case favorite(Bool)
        /// Rated with this value (0.5…10 in steps of 0.5), or not rated (`nil`).
        case rating(Double?)
    }

    /// The TMDB movie id.
    public var movieID: Int
    /// The state asked for.
    public var change: Change

    /// An edit of `movieID`. Throws `invalidArgument` for an id below 1 or a rating TMDB refuses.
    public init(movieID: Int, change: Change) throws(MoviesError) {
        guard movieID > 0 else { throw .invalidArgument("the movie id must be a positive TMDB id, not \(movieID)") }
        if case .rating(let value?) = change {
            guard value.isFinite, (0.5...10).contains(value), (value * 2).rounded() == value * 2 else {
                // As the user typed it: "not 11", not "not 11.0".
                let typed = value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
                throw .invalidArgument("a rating is 0.5 to 10 in steps of 0.5, not \(typed)")
            }
        }
        self.movieID = movieID
        self.change = change
    }

    /// An edit made from stored parts, unchecked (rows written by `init(movieID:change:)`).
    public init(unchecked movieID: Int, change: Change) {
        self.movieID = movieID
        self.change = change
    }

    /// The list this edit changes.
    public var list: AccountList {
        switch change {
        case .watchlist: .watchlist
        case .favorite: .favorite
        case .rating: .rated
        }
    }

    /// The stored value: 1 or 0 for the watchlist and favourites, the rating or `nil`.
    public var value: Double? {
        switch change {
        case .watchlist(let on), .favorite(let on): on ? 1 : 0
        case .rating(let value): value
        }
    }

    /// The edit of `list` with a stored `value` (see `value`).
    public static func stored(list: AccountList, movieID: Int, value: Double?) -> AccountEdit {
        switch list {
        case .watchlist: AccountEdit(unchecked: movieID, change: .watchlist((value ?? 0) != 0))
        case .favorite: AccountEdit(unchecked: movieID, change: .favorite((value ?? 0) != 0))
        case .rated: AccountEdit(unchecked: movieID, change: .rating(value))
        }
    }

    /// "add 603 to the watchlist", "rate 603 8.5", …: for messages.
    public var description: String {
        switch change {
        case .watchlist(true): "add \(movieID) to the watchlist"
        case .watchlist(false): "remove \(movieID) from the watchlist"
        case .favorite(true): "mark \(movieID) as a favourite"
        case .favorite(false): "unmark \(movieID) as a favourite"
        case .rating(let value?): "rate \(movieID) \(value)"
        case .rating(nil): "remove the rating of \(movieID)"
        }
    }
}
