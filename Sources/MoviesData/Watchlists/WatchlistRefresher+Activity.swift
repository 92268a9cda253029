import MoviesDomain

extension WatchlistRefresher {
    /// What a call in `scope` may know of the refreshes (`Status`): whether a run over lists it may
    /// see is going (`OwnerScope.maySee(_:)`); the progress of the runs going that it may follow
    /// (`OwnerScope.mayFollow(_:)`), as one; and the last refresh of lists they may
    /// see: the owners' last runs that finished last, merged with those that ran alongside it
    /// (`RefreshSummary.latest(mergingOverlapping:)`), each with its first error only when they
    /// may follow it. Root sees every owner's; a user the system's and their own; a caller nobody
    /// knows the system's.
    public func activity(seenBy scope: OwnerScope) async -> RefreshActivity {
        await loadHistory()
        let going = runs.values.filter(\.started)
        let followed = going.filter { scope.mayFollow($0.target) }.compactMap(\.latest)
        let progress = followed.max { $0.sequence < $1.sequence }.map { newest in
            RefreshProgress.combined(followed.map(\.progress), newest: newest.progress)
        }
        let seen = lastByOwner.compactMap { owner, summary -> RefreshSummary? in
            let target = RefreshTarget(owners: [owner])
            guard scope.maySee(target) else { return nil }
            var summary = summary
            if !scope.mayFollow(target) { summary.firstError = nil }
            return summary
        }
        return RefreshActivity(
            running: going.contains { scope.maySee($0.target) }, progress: progress,
            last: RefreshSummary.latest(mergingOverlapping: seen))
    }

    /// The last refresh of `owner`'s lists, if any: this process's, else the one recorded before
    /// the start.
    public func lastRefresh(of owner: Owner) async -> RefreshSummary? {
        await loadHistory()
        return lastByOwner[owner]
    }

    /// Reads the refreshes recorded before the start, once (this process's are newer).
    func loadHistory() async {
        guard !historyRead, let history else { return }
        historyRead = true
        let recorded = (try? await history.lastRefreshes()) ?? [:]
        lastByOwner.merge(recorded) { mine, _ in mine }
    }
}
