import MoviesDomain

/// What a cached entry may be for a call before any work runs: the one rule, beside
/// `CachePolicy`, for the answer from memory on the server's event loop and for the cached reply
/// a call's task sends itself.
public enum ImmediateAnswer: Sendable, Hashable {
    /// The call's final reply (`cache_only`, or `cache_first` with a fresh entry).
    case final
    /// The first of a `more` call's replies, TMDB's answer to follow (the default policy, fresh).
    case first

    /// What a cached entry may be for a call with `policy`: `streams` for a call that takes
    /// several replies (`more`, not `oneway`), `stale` for an entry past its fresh lifetime.
    /// `nil`: the cache does not answer before the loader runs (`network_only`, `local_only`,
    /// a stale entry under `cache_first` or the default policy, the default policy without `more`).
    public static func of(policy: FetchPolicy, streams: Bool, stale: Bool) -> ImmediateAnswer? {
        switch policy {
        case .cacheOnly: .final
        case .cacheFirst: stale ? nil : .final
        case .cacheThenNetwork: streams && !stale ? .first : nil
        case .networkOnly, .localOnly: nil
        }
    }

    /// Whether a cached entry could be the immediate answer at all under `policy` (so reading one
    /// is worth it).
    public static func mayExist(policy: FetchPolicy, streams: Bool) -> Bool {
        of(policy: policy, streams: streams, stale: false) != nil
    }
}
