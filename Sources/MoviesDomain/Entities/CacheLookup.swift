import FoundationEssentials

/// What the cache holds for one call's key, read once (from memory, else the database) and never
/// from the network: what the call's `FetchPlan` is made from, and what its cached replies are
/// made of (the stored reply bytes, not decoded).
public struct CacheLookup: Sendable, Hashable {
    /// What was found.
    public enum Found: Sendable, Hashable {
        /// Nothing usable (never stored, corrupt, or unreadable).
        case missing
        /// TMDB's authoritative "not found", remembered until `expiresAt`.
        case negative(expiresAt: Date)
        /// A value in the interface's shape.
        case answer(CachedAnswer)
        /// The cache could not be read (the failure was recorded).
        case unreadable(MoviesError)
    }

    /// What was found.
    public var found: Found
    /// The configured max-stale bound of the entry's resource class, in seconds.
    public var maxStaleSeconds: Int

    /// Creates a lookup.
    public init(_ found: Found, maxStaleSeconds: Int) {
        self.found = found
        self.maxStaleSeconds = maxStaleSeconds
    }

    /// The cached value, if one was found.
    public var answer: CachedAnswer? {
        if case .answer(let answer) = found { return answer }
        return nil
    }

    /// The entry as a plan sees it at `now`; `maxStaleSeconds` overrides the configured bound
    /// (the call's own `maxStaleSeconds`).
    public func entry(at now: Date, maxStaleSeconds override: Int? = nil) -> FetchPlan.Entry {
        switch found {
        case .missing:
            return .missing
        case .unreadable:
            return .unreadable
        case .negative(let expiresAt):
            return .negative(stale: now >= expiresAt)
        case .answer(let answer):
            let bound = Double(max(0, override ?? maxStaleSeconds))
            return .value(stale: answer.isStale(at: now), servable: now <= answer.expiresAt.addingTimeInterval(bound))
        }
    }
}
