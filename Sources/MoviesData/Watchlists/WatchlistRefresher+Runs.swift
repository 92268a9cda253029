import MoviesDomain

extension WatchlistRefresher {
    /// Whose lists a refresh of `target` goes through, the system first, then by uid: the owners
    /// it names, else every owner of a list it includes and (all lists) every owner signed in to
    /// a TMDB account, whose watchlist is one more list of theirs. Throws `noSuchWatchlist` when
    /// it names a list that no owner has.
    func owners(of target: RefreshTarget) async throws -> [Owner] {
        var owners = target.owners ?? []
        if target.owners == nil {
            owners = Set(try await watchlists.watchlists().filter(target.includes).map(\.owner))
            if let name = target.name {
                if owners.isEmpty { throw MoviesError.noSuchWatchlist(name) }
            } else if let account {
                owners.formUnion(await account.signedInOwners())
            }
        }
        return owners.sorted { Self.order($0) < Self.order($1) }
    }

    private static func order(_ owner: Owner) -> Int64 {
        owner.user.map { Int64($0.uid) } ?? -1
    }

    /// The run that refreshes `owner`'s list `name` (every list of theirs when `nil`) in `mode`:
    /// the first of theirs, going or waiting, that covers it, joined with `onProgress`; else a new
    /// one that starts when their earlier runs have finished. Has no suspension point, so no other
    /// request comes between looking at the runs and adding to them.
    func run(of owner: Owner, name: String?, mode: RefreshMode, onProgress: @escaping @Sendable (RefreshProgress) -> Void) -> Task<RefreshSummary, any Error> {
        let theirs = runs.values.filter { $0.owner == owner }.sorted { $0.id < $1.id }
        if let covering = theirs.first(where: { $0.covers(RefreshTarget(owners: [owner], name: name), mode) }) {
            runs[covering.id]?.subscribers.append(onProgress)
            return covering.task
        }
        let earlier = theirs.map(\.task)
        nextRunID += 1
        let id = nextRunID
        // Not a child of the caller's task: whoever joins must not lose the refresh when the caller
        // goes away. Owned by the actor (`runs`), cancelled by `cancelRunning()`, and it leaves
        // `runs` itself before anyone awaiting it resumes.
        let task = Task {
            defer { self.finishRun(id) }
            for run in earlier { _ = try? await run.value }
            try Task.checkCancellation()
            self.runs[id]?.started = true
            return try await self.perform(runID: id, owner: owner, name: name, mode: mode)
        }
        runs[id] = RefreshRun(id: id, owner: owner, name: name, mode: mode, task: task, subscribers: [onProgress])
        return task
    }

    private func finishRun(_ id: Int) {
        runs[id] = nil
        if runs.isEmpty { changeFeedRun = nil }
    }

    /// The change feed's run for a refresh starting now: the one the refreshes going now share,
    /// else a new one (run in the caller's lane: the system's). Returns how many pinned movies it
    /// fetched again (`nil` when it failed); `nil` without a change feed. Two refreshes starting
    /// together, or one starting while another runs, read the feed once.
    func sharedChangeFeed() -> Task<Int?, Never>? {
        guard let changeFeed else { return nil }
        if let changeFeedRun { return changeFeedRun }
        let feed = Task { (try? await changeFeed.run())?.refetched }
        changeFeedRun = feed
        return feed
    }

    /// The probe a run starting now waits for (`RemoteProbe.probeIfPaused()`): the one in flight,
    /// else a new one; `nil` without a probe. Runs starting together probe TMDB once.
    func sharedProbe() -> Task<Void, Never>? {
        guard let probe else { return nil }
        if let probeRun { return probeRun }
        let probing = Task {
            await probe.probeIfPaused()
            self.probeRun = nil
        }
        probeRun = probing
        return probing
    }

    /// How many callers wait on the runs going now (each starter and those who joined).
    var callersOfRunningRefresh: Int {
        runs.values.filter(\.started).reduce(0) { $0 + $1.subscribers.count }
    }

    /// How many callers wait on the run of `owner`'s lists going now.
    func callers(ofRunOf owner: Owner) -> Int {
        runs.values.filter { $0.started && $0.owner == owner }.reduce(0) { $0 + $1.subscribers.count }
    }

    /// How many runs are going or waiting.
    var runCount: Int { runs.count }
}
