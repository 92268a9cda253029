import MoviesDomain

/// What a new edit supersedes in the outbox, so replaying what is left in order ends as replaying
/// everything would, with fewer requests (TMDB-SYNC-NOTES §2: set-states, rating's side effect).
///
/// Only *pending* entries are merged or dropped. A delivered entry is TMDB's history: it stays
/// until a pull confirms it (or its grace runs out), because the pulled lists can only be explained
/// by every write TMDB took, in order. Dropping a delivered rating, for one, would leave the
/// watchlist add before it unexplained once TMDB took the movie off the watchlist.
///
/// - The new edit replaces every earlier pending entry of the same list and movie: the last state
///   asked for wins.
/// - One exception keeps TMDB's side effect: a pending rating that a removal of the rating
///   supersedes would also have taken the movie off the watchlist. Unless a later watchlist edit
///   of the movie decides the watchlist anyway, that entry becomes "off the watchlist" in its place
///   (and supersedes the pending watchlist edits before it).
public enum OutboxCompaction {
    /// The plan for `edit` over the account's `entries` of the same movie.
    public struct Plan: Sendable, Hashable {
        /// Entries to delete (pending ones only).
        public var deleted: [Int64] = []
        /// A pending entry to turn into "off the watchlist", keeping its place.
        public var convertedToWatchlistRemoval: Int64?
    }

    /// The plan for appending `edit` to `entries` (any of the account's entries; other movies,
    /// delivered and rejected entries are left alone).
    public static func plan(for edit: AccountEdit, over entries: [PendingEdit]) -> Plan {
        let movie = entries.filter { $0.edit.movieID == edit.movieID }
        let waiting = movie.filter { $0.state == .pending }
        var plan = Plan()
        if case .rating(nil) = edit.change,
           let rating = waiting.first(where: { $0.edit.list == .rated && $0.edit.value != nil }),
           !movie.contains(where: { $0.edit.list == .watchlist && $0.id > rating.id && $0.state != .rejected }) {
            plan.convertedToWatchlistRemoval = rating.id
            plan.deleted += waiting.filter { $0.edit.list == .watchlist && $0.id < rating.id }.map(\.id)
        }
        plan.deleted += waiting.filter { $0.edit.list == edit.list && $0.id != plan.convertedToWatchlistRemoval }.map(\.id)
        return plan
    }
}
