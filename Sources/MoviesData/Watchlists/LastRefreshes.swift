import MoviesDomain

/// The last refresh of each set of owners whose lists a refresh went through, so that `Status`
/// shows each caller the last refresh they may know of and nothing of another user's (when it
/// ran, how long, how many steps: the size of their lists): root the last of all; anyone else the
/// last that went through system lists and their own only (issue 31).
struct LastRefreshes: Sendable {
    private var byOwners: [Set<Owner>: RefreshSummary] = [:]

    /// Whether a refresh of the lists of `owners` is everyone's to know of: system lists only.
    static func isPublic(_ owners: Set<Owner>) -> Bool { owners.isSubset(of: [.system]) }

    /// Records `summary`, a refresh of the lists of `owners`.
    mutating func record(_ summary: RefreshSummary, owners: Set<Owner>) {
        byOwners[owners] = summary
    }

    /// Records `summary`, the last public refresh of an earlier run, unless one ran since.
    mutating func recordEarlier(_ summary: RefreshSummary) {
        if byOwners[[.system]] == nil { byOwners[[.system]] = summary }
    }

    /// The last refresh of all.
    var latest: RefreshSummary? { Self.latest(of: byOwners.values) }

    /// The last refresh `caller` may know of (`nil`: a caller without credentials, who may know of
    /// public ones).
    func latest(visibleTo caller: Caller?) -> RefreshSummary? {
        if caller?.isRoot == true { return latest }
        let own: Set<Owner> = caller.map { [.system, $0.personal] } ?? [.system]
        return Self.latest(of: byOwners.filter { $0.key.isSubset(of: own) }.values)
    }

    private static func latest(of summaries: some Sequence<RefreshSummary>) -> RefreshSummary? {
        summaries.max { $0.finishedAt < $1.finishedAt }
    }
}
