import MoviesDomain

/// What a new edit supersedes in the outbox, so replaying what is left in order ends as replaying
/// everything would, with fewer requests (TMDB-SYNC-NOTES §2: set-states, rating's side effect).
///
/// - The new edit replaces every earlier entry (not rejected) of the same list and movie: the
///   last state asked for wins.
/// - One exception keeps TMDB's side effect: a waiting rating that a removal of the rating
///   supersedes had also taken the movie off the watchlist. Unless a later watchlist edit of the
///   movie decides the watchlist anyway, that entry becomes "off the watchlist" in its place (and
///   supersedes the watchlist edits before it).
public enum OutboxCompaction {
    /// The plan for `edit` over the account's `entries` of the same movie.
    public struct Plan: Sendable, Hashable {
        /// Entries to delete.
        public var deleted: [Int64] = []
        /// An entry to turn into "off the watchlist", keeping its place.
        public var convertedToWatchlistRemoval: Int64?
    }

    /// The plan for appending `edit` to `entries` (any of the account's entries; other movies and
    /// rejected entries are left alone).
    public static func plan(for edit: AccountEdit, over entries: [PendingEdit]) -> Plan {
        let mine = entries.filter { $0.edit.movieID == edit.movieID && $0.state != .rejected }
        var plan = Plan()
        if case .rating(nil) = edit.change,
           let rating = mine.first(where: { $0.edit.list == .rated && $0.state == .pending && $0.edit.value != nil }),
           !mine.contains(where: { $0.edit.list == .watchlist && $0.id > rating.id }) {
            plan.convertedToWatchlistRemoval = rating.id
            plan.deleted += mine.filter { $0.edit.list == .watchlist && $0.id < rating.id }.map(\.id)
        }
        plan.deleted += mine.filter { $0.edit.list == edit.list && $0.id != plan.convertedToWatchlistRemoval }.map(\.id)
        return plan
    }
}
