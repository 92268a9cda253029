import MoviesDomain

extension WatchlistRefresher {
    /// What `caller` may know of the refreshes (`Status`): whether a run over lists they may see
    /// is going (`RefreshTarget.isVisible(to:)`); the progress of the runs going that they may
    /// follow (`RefreshTarget.mayBeFollowed(by:)`), as one; and the last refresh of lists they may
    /// see: the owners' last runs that finished last, merged with those that ran alongside it
    /// (`RefreshSummary.latest(mergingOverlapping:)`), each with its first error only when they
    /// may follow it. Root sees every owner's; a user the system's and their own; a caller nobody
    /// knows the system's.
    public func activity(seenBy caller: Caller?) async -> RefreshActivity {
        await loadHistory()
        let going = runs.values.filter(\.started)
        let followed = going.filter { $0.target.mayBeFollowed(by: caller) }.compactMap(\.latest)
        let progress = followed.max { $0.sequence < $1.sequence }.map { newest in
            RefreshProgress.combined(followed.map(\.progress), newest: newest.progress)
        }
        let seen = lastByOwner.compactMap { owner, summary -> RefreshSummary? in
            let target = RefreshTarget(owners: [owner])
            guard target.isVisible(to: caller) else { return nil }
            var summary = summary
            if !target.mayBeFollowed(by: caller) { summary.firstError = nil }
            return summary
        }
        return RefreshActivity(
            running: going.contains { $0.target.isVisible(to: caller) }, progress: progress,
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
