import FoundationEssentials
import MoviesDomain
import Networking

/// Refreshes watchlists: goes through every search page up to each query's depth (stopping at
/// TMDB's last page), each listed movie's details and, when enabled, their posters; fetches what is
/// due (`RefreshMode.due`: never fetched, expired, inside the refresh-ahead window, or made stale by
/// TMDB's change feed) through the ordinary repositories with policy `network_only` (so results are
/// stored exactly like interactive ones), leaves the rest alone (counted as current), and pins it
/// all so eviction never removes it. `RefreshMode.everything` fetches every entry again.
///
/// One refresh runs at a time: a request while a covering refresh runs (the same list, or all
/// lists, fetching at least as much) joins it and gets its progress and summary; any other request
/// waits for it to finish.
public actor WatchlistRefresher: WatchlistRefreshRepository {
    /// What to fetch besides pages and details.
    public struct Settings: Sendable, Hashable {
        /// Whether posters of the listed movies are prefetched.
        public var posters: Bool
        /// The poster size prefetched.
        public var posterSize: PosterSize
        /// The language of fetched pages and details (`nil`: TMDB's default, as `movies` asks).
        public var language: String?
        /// An entry is due at this fraction of its fresh lifetime (the refresh-ahead window; the
        /// scheduler's `aheadFraction`).
        public var aheadFraction: Double

        /// How many queries of a list are fetched at once (each query's pages one after another, as
        /// each page bounds the next). The remote's rate limiter paces them; a few in flight keep it
        /// busy despite TMDB's latency (8 fill 35 requests/s up to ~230 ms per answer).
        public var concurrentQueries: Int

        /// Creates settings (defaults: posters at w342, TMDB's default language, 8 queries at once).
        public init(posters: Bool = true, posterSize: PosterSize = .w342, language: String? = nil, concurrentQueries: Int = 8, aheadFraction: Double = 0.75) {
            self.aheadFraction = aheadFraction
            self.posters = posters
            self.posterSize = posterSize
            self.language = language
            self.concurrentQueries = max(1, concurrentQueries)
        }
    }

    private struct Run {
        let id: Int
        let target: RefreshTarget
        let mode: RefreshMode
        let task: Task<RefreshSummary, any Error>

        /// Whether this run does everything a refresh of `target` in `mode` would.
        func covers(_ target: RefreshTarget, _ mode: RefreshMode) -> Bool {
            self.target.covers(target) && (self.mode == .everything || mode == .due)
        }
    }

    let watchlists: any WatchlistRepository
    let movies: any MoviesRepository
    let posterImages: any PosterImagesRepository
    let responses: any ResponseStorage
    let settings: Settings
    let now: @Sendable () -> Date
    /// Where refreshes starting and finishing are reported.
    let events: any EventLog
    /// TMDB's change feed, read at the start of every refresh (`nil`: not followed).
    let changeFeed: ChangeFeedSync?
    /// The TMDB accounts, whose lists are pulled at the start of every refresh (`nil`: none).
    let account: AccountDirectory?
    /// Where the last public refresh (`LastRefreshes.isPublic`) is kept across restarts (`nil`: in
    /// memory only).
    let history: (any RefreshHistoryStorage)?
    private var historyRead = false
    /// Probes TMDB at the start of a refresh while background work is paused (`nil`: never).
    let probe: RemoteProbe?
    private var running: Run?
    private var nextRunID = 0
    private var subscribers: [Int: [@Sendable (RefreshProgress) -> Void]] = [:]
    private var latestProgress: RefreshProgress?
    private var lasts = LastRefreshes()
    /// Keys of current entries to pin (`flushPins()`), in one transaction rather than one each.
    private var pendingPins: [String] = []

    /// Creates a refresher over the repositories the daemon serves from.
    public init(
        watchlists: any WatchlistRepository, movies: any MoviesRepository, posterImages: any PosterImagesRepository,
        responses: any ResponseStorage, settings: Settings = Settings(), now: @escaping @Sendable () -> Date = { Date() },
        events: any EventLog = DiscardingEventLog(), changeFeed: ChangeFeedSync? = nil, account: AccountDirectory? = nil,
        history: (any RefreshHistoryStorage)? = nil, probe: RemoteProbe? = nil
    ) {
        self.history = history
        self.probe = probe
        self.account = account
        self.events = events
        self.changeFeed = changeFeed
        self.watchlists = watchlists
        self.movies = movies
        self.posterImages = posterImages
        self.responses = responses
        self.settings = settings
        self.now = now
    }

    /// Refreshes every list named `watchlist` (all lists when `nil`), whoever owns it.
    public func refresh(watchlist: String?, mode: RefreshMode, onProgress: @escaping @Sendable (RefreshProgress) -> Void) async throws -> RefreshSummary {
        try await refresh(RefreshTarget(name: watchlist), mode: mode, onProgress: onProgress)
    }

    /// Refreshes the lists of `target`, or joins the refresh already covering it.
    public func refresh(_ watchlist: RefreshTarget, mode: RefreshMode, onProgress: @escaping @Sendable (RefreshProgress) -> Void) async throws -> RefreshSummary {
        while let current = running {
            if current.covers(watchlist, mode) {
                subscribers[current.id, default: []].append(onProgress)
                return try await current.task.value
            }
            _ = try? await current.task.value
        }
        nextRunID += 1
        let id = nextRunID
        subscribers[id] = [onProgress]
        latestProgress = nil
        // Not a child of the caller's task: whoever joins must not lose the refresh when the caller
        // goes away. Owned by the actor (`running`), cancelled by `cancelRunning()`, and it clears
        // `running` itself before anyone awaiting it resumes.
        let task = Task {
            defer { self.finishRun(id) }
            return try await self.perform(runID: id, target: watchlist, mode: mode)
        }
        running = Run(id: id, target: watchlist, mode: mode, task: task)
        return try await task.value
    }

    private func finishRun(_ id: Int) {
        if running?.id == id { running = nil }
        subscribers[id] = nil
    }

    /// The last completed refresh, if any: this process's, else the one recorded before the start.
    public func lastRefresh() async -> RefreshSummary? {
        await readHistory()
        return lasts.latest
    }

    /// The last completed refresh `caller` may know of (`LastRefreshes`): root the last of all,
    /// anyone else the last that went through system lists and their own only.
    public func lastRefresh(visibleTo caller: Caller?) async -> RefreshSummary? {
        await readHistory()
        return lasts.latest(visibleTo: caller)
    }

    /// Reads, once, the last public refresh recorded before the start.
    private func readHistory() async {
        guard !historyRead, let history else { return }
        historyRead = true
        if let recorded = try? await history.lastRefresh() { lasts.recordEarlier(recorded) }
    }

    /// The progress of the refresh running now, if any.
    public func currentProgress() -> RefreshProgress? { running == nil ? nil : latestProgress }

    /// Whose lists the refresh running now goes through, if one runs.
    public func currentTarget() -> RefreshTarget? { running?.target }

    /// How many callers wait on the refresh running now (the starter and those who joined).
    var callersOfRunningRefresh: Int { running.map { subscribers[$0.id]?.count ?? 0 } ?? 0 }

    /// Cancels the refresh running now (daemon shutdown).
    public func cancelRunning() { running?.task.cancel() }

    /// A refresh someone asked for (`movies refresh`) is an explicit command: it probes TMDB at
    /// once when the retry pause is on, then runs its steps as background work, so they go to
    /// TMDB when it is back and fail at once, without a request each, when it is not.
    private func perform(runID: Int, target: RefreshTarget, mode: RefreshMode) async throws -> RefreshSummary {
        if let probe { await probe.probeIfPaused() }
        return try await RemoteDemand.$current.withValue(.background) {
            // The system's lane for the change feed; each list's steps go in its owner's.
            try await RateLimitLane.$current.withValue(RateLimitLane(uid: nil, priority: .background)) {
                try await performSteps(runID: runID, target: target, mode: mode)
            }
        }
    }

    private func performSteps(runID: Int, target: RefreshTarget, mode: RefreshMode) async throws -> RefreshSummary {
        let start = now()
        // The accounts' lists first: each one's watchlist is refreshed and pinned as one more list.
        if let account { await account.pullNow(owners: target.owners) }
        // Only the lists of the target's owners are read: a refresh of one user's lists (and its
        // error for a name they have not) takes no longer for what other users keep.
        let all = if let owners = target.owners { try await watchlists.watchlists(of: owners) } else { try await watchlists.watchlists() }
        let lists = all.filter(target.includes)
        if let name = target.name, lists.isEmpty { throw MoviesError.noSuchWatchlist(name) }
        var tally = RefreshTally()
        tally.total = lists.reduce(0) { sum, list in
            sum + list.queries.reduce(0) { $0 + $1.pages } + list.movieIDs.count * (settings.posters ? 2 : 1)
        }
        // The change feed first: what changed is marked stale (and pinned movies fetched again)
        // before the lists are; a feed that cannot be read does not stop the refresh.
        if let changeFeed, let feed = try? await changeFeed.run() { tally.changed = feed.refetched }
        let scope = target.description
        events.record(DataEvent(.info, "refresh.started", "refresh of \(scope) started: \(lists.count) list(s), \(tally.total) step(s)"))
        do {
            try await refreshLists(lists, runID: runID, mode: mode, tally: &tally)
        } catch {
            events.record(DataEvent(.notice, "refresh.cancelled", "refresh of \(scope) stopped after \(tally.done + tally.failed + tally.skipped + tally.current) of \(tally.total) step(s)"))
            throw error
        }
        let summary = tally.summary(start: start, end: now())
        // Whose lists it went through (none found: whose it was asked for), for `Status`.
        let owners = lists.isEmpty ? target.owners ?? [] : Set(lists.map(\.owner))
        lasts.record(summary, owners: owners)
        // A public one is kept for `Status` across restarts; a storage failure is reported by the
        // storage's health.
        if LastRefreshes.isPublic(owners) { try? await history?.saveLastRefresh(summary) }
        let severity: DataEvent.Severity = summary.failed > 0 ? .warning : .info
        let firstError = summary.firstError.map { "; first error: \($0)" } ?? ""
        events.record(DataEvent(
            severity, "refresh.finished",
            "refresh of \(scope) finished in \(Int(summary.durationSeconds.rounded())) s: \(summary.done) fetched, \(tally.current) current, \(summary.failed) failed, \(summary.skipped) skipped\(firstError)"))
        return summary
    }

    private func refreshLists(_ lists: [Watchlist], runID: Int, mode: RefreshMode, tally: inout RefreshTally) async throws {
        for list in lists {
            tally.watchlist = list.name
            // Each list's requests wait for TMDB's rate limit in its owner's lane, so one user's
            // prefetch takes its turn with another's searches instead of going before them.
            try await RateLimitLane.$current.withValue(RateLimitLane(owner: list.owner, priority: .background)) {
                try await refreshQueries(list.queries, runID: runID, mode: mode, tally: &tally)
                try await refreshMovies(of: list, runID: runID, mode: mode, tally: &tally)
            }
            await flushPins()
        }
    }

    private func refreshMovies(of list: Watchlist, runID: Int, mode: RefreshMode, tally: inout RefreshTally) async throws {
        for id in list.movieIDs {
            try Task.checkCancellation()
            let outcome = await run(.movie(id: id), mode: mode, tally: &tally)
            report(runID, tally.progress(RefreshStep.movie(id: id).label))
            guard settings.posters else { continue }
            guard case .movie(let path?)? = outcome else {
                tally.skipped += 1
                report(runID, tally.progress("poster of movie \(id) (none)"))
                continue
            }
            let poster = RefreshStep.poster(path: path, size: settings.posterSize)
            _ = await run(poster, mode: mode, tally: &tally)
            report(runID, tally.progress(poster.label))
        }
    }

    private func run(_ step: RefreshStep, mode: RefreshMode, tally: inout RefreshTally) async -> RefreshStepOutcome? {
        record(await attempt(step, mode: mode), tally: &tally)
    }

    /// Fetches `step` if due (`fetchIfDue`), returning what it did or its failure.
    func attempt(_ step: RefreshStep, mode: RefreshMode) async -> Result<RefreshStepDone, MoviesError> {
        do {
            return .success(try await fetchIfDue(step, mode: mode))
        } catch {
            return .failure(MoviesError(wrapping: error))
        }
    }

    /// Counts the result of one step in `tally`; returns its outcome when it succeeded.
    func record(_ result: Result<RefreshStepDone, MoviesError>, tally: inout RefreshTally) -> RefreshStepOutcome? {
        switch result {
        case .success(let done):
            if done.fetched { tally.done += 1 } else { tally.current += 1 }
            return done.outcome
        case .failure(let failure):
            // TMDB says the movie does not exist (an authoritative 404): retrying cannot help, and a
            // cron job must not report a failure on every run for it, so the step is skipped.
            if failure.code == .notFound {
                tally.skipped += 1
                return nil
            }
            tally.fail(failure)
            return nil
        }
    }

    /// Remembers `key` to pin with the next `flushPins()`.
    func pinLater(_ key: String) {
        pendingPins.append(key)
    }

    /// Pins the current entries gathered since the last flush, in one transaction (a failure
    /// leaves them as they were: the next refresh pins them).
    func flushPins() async {
        guard !pendingPins.isEmpty else { return }
        let keys = pendingPins
        pendingPins = []
        try? await responses.setPinned(true, keys: keys)
    }

    func report(_ runID: Int, _ progress: RefreshProgress) {
        latestProgress = progress
        for subscriber in subscribers[runID] ?? [] { subscriber(progress) }
    }
}
