import MoviesDomain

/// How many bytes of the cache each owner's pins may take: pinned entries are never
/// evicted, so without a cap one user's watchlists could pin the whole `[Cache] MaxBytes=` and
/// leave nothing of anyone else's pages.
///
/// A user's pins: `[Users] PinnedBytesPerUser=`, by default a quarter of the cache's budget; the
/// system's lists (the administrators'): the whole budget, never more. A page on two owners'
/// lists counts against each of them: what one owner may keep never depends on what another
/// pins or lets go of.
public struct PinBudget: Sendable, Hashable {
    /// The cache's byte budget (`[Cache] MaxBytes=`): the system's cap, and every user's at most.
    public var cacheBytes: Int64
    /// Each user's cap.
    public var userBytes: Int64

    /// Creates the caps of a cache of `cacheBytes`; `userBytes` `nil`: a quarter of it.
    public init(cacheBytes: Int64, userBytes: Int64? = nil) {
        self.cacheBytes = max(0, cacheBytes)
        self.userBytes = max(0, userBytes ?? cacheBytes / 4)
    }

    /// No cap (tests, tools).
    public static let unlimited = PinBudget(cacheBytes: .max, userBytes: .max)

    /// The most bytes `owner`'s pins may take.
    public func bytes(for owner: Owner) -> Int64 {
        switch owner {
        case .system: cacheBytes
        case .user: min(userBytes, cacheBytes)
        }
    }
}
