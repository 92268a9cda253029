/// What a watchlist refresh fetches.
public enum RefreshMode: String, Sendable, Hashable, CaseIterable {
    /// What is due: never fetched, expired or inside the refresh-ahead window (which includes what
    /// TMDB's change feed listed as changed); everything else is left alone and counted as current.
    /// What `movies refresh`, the timer and cron run.
    case due
    /// Every entry again, whatever its age (revalidated with `If-None-Match` where TMDB gave an
    /// ETag): `movies refresh --all`.
    case everything
}
