/// How a request may use the cache and the network (DESIGN §4).
public enum FetchPolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Emit the cached value at once (if any, within max-stale), then fetch and emit the fresh one.
    case cacheThenNetwork = "cache_then_network"
    /// Answer from a fresh cache without touching the network; fetch only when missing or stale,
    /// and fall back to stale data (within max-stale) if that fetch fails.
    case cacheFirst = "cache_first"
    /// Always fetch; never answer from the cache (the result is still stored).
    case networkOnly = "network_only"
    /// Never fetch; answer with whatever is cached, however old, or fail with `notCached`.
    case cacheOnly = "cache_only"
    /// Never fetch and never read a cached page: search the local index of every cached movie
    /// (`Search` only), or fail with `notCached` when nothing cached matches.
    case localOnly = "local_only"

    /// The default policy.
    public static let `default`: FetchPolicy = .cacheThenNetwork
}

extension FetchPolicy {
    /// Whether a call with this policy is best made streaming (`more`): its cached value comes
    /// first and TMDB's answer follows (the default policy). The client asks with `more` then.
    public var streamsReplies: Bool { self == .cacheThenNetwork }

    /// Whether a call with this policy may ask TMDB (the fetch plan's rule for a key never cached).
    public var asksTMDB: Bool { FetchPlan.make(policy: self, streams: false, entry: .missing).fetches }

    /// Whether a cached copy answers when TMDB fails (the fetch plan's rule for a stale value
    /// still within max-stale).
    public var fallsBackToCache: Bool {
        FetchPlan.make(policy: self, streams: false, entry: .value(stale: true, servable: true)).fallsBackToCache
    }
}
