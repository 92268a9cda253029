/// One write the account's API applied (`POST …/watchlist`, `POST …/favorite`, `POST` or `DELETE
/// /3/movie/{id}/rating` answered 2xx), as the control port's `write_log` lists it.
public struct AccountWrite: Sendable, Equatable {
    /// What the write changed.
    public enum Kind: String, Sendable {
        /// The watchlist (`value` is whether the movie is on it afterwards).
        case watchlist
        /// The favourites (`value` is whether the movie is one afterwards).
        case favorite
        /// The rating (`value` is the rating, or none when it was deleted).
        case rating
    }

    /// What the write set.
    public enum Value: Sendable, Equatable {
        /// Added to (true) or removed from (false) a list.
        case flag(Bool)
        /// Rated with this value.
        case rating(Double)
        /// The rating was deleted.
        case removed
    }

    /// The write's number: 1 for the first write since start (or `DELETE /account`).
    public var seq: Int
    /// What the write changed.
    public var kind: Kind
    /// The movie written.
    public var movieID: Int
    /// What the write set.
    public var value: Value
}
