import FoundationEssentials

/// When a cached watchlist entry is due to be fetched again (DESIGN §4, refresh-ahead): at
/// `aheadFraction` of its fresh lifetime, so it is fetched before it expires. TMDB's change feed
/// shortens the lifetime of what it lists as changed (it becomes stale), which makes it due at once;
/// the feed's validations lengthen it. One rule for the background scheduler and `movies refresh`.
enum RefreshDue {
    /// The due date of an entry fetched at `fetchedAt` and fresh until `expiresAt`; `jitter` is a
    /// factor around 1 (the scheduler spreads its work; an explicit refresh uses 1).
    static func date(fetchedAt: Date, expiresAt: Date, aheadFraction: Double, jitter: Double = 1) -> Date {
        let lifetime = max(0, expiresAt.timeIntervalSince(fetchedAt))
        return fetchedAt.addingTimeInterval(lifetime * aheadFraction * jitter)
    }
}
