import FoundationEssentials
import MoviesDomain
import Networking

/// Refreshes watchlists: goes through every search page up to each query's depth (stopping at
/// TMDB's last page), each listed movie's details and, when enabled, their posters; fetches what is
/// due (`RefreshMode.due`: never fetched, expired, inside the refresh-ahead window, or made stale by
/// TMDB's change feed) through the ordinary repositories with policy `network_only` (so results are
/// stored exactly like interactive ones), leaves the rest alone (counted as current), and pins it
/// all so eviction never removes it, within the owner's byte budget (`PinBudget`): in list order,
/// what fits is pinned; once an entry does not fit, the rest of the owner's lists is neither
/// fetched nor pinned (counted as `overBudget`, and said in the journal), so one owner's lists
/// never push everyone else's pages out of the cache. `RefreshMode.everything` fetches every
/// entry again.
///
/// A refresh goes through each owner's lists as a run of its own (`RefreshRun`); a request over
/// several owners' lists (root's, the admin group's) is their runs together, its progress and
/// summary theirs added up. Runs of different owners go at the same time, each list's requests
/// in its owner's lane of the rate limiter, so one user's refresh never waits for another's. Of
/// one owner's lists, one run goes at a time: a request that a run of that owner covers (the
/// same lists or all of them, fetching at least as much) joins it and gets its progress and
/// summary; any other waits for the runs of that owner before it, in the order asked. Each run
/// pulls its owner's TMDB account first; the change feed, which is everyone's, is read once for
/// all the runs that go together (`sharedChangeFeed()`).
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

        /// How many bytes each owner's pins may take.
        public var pinBudget: PinBudget

        /// How many queries of a list are fetched at once (each query's pages one after another, as
        /// each page bounds the next). The remote's rate limiter paces them; a few in flight keep it
        /// busy despite TMDB's latency (8 fill 35 requests/s up to ~230 ms per answer).
        public var concurrentQueries: Int

        /// Creates settings (defaults: posters at w342, TMDB's default language, 8 queries at once,
        /// pins without a cap).
        public init(
            posters: Bool = true, posterSize: PosterSize = .w342, language: String? = nil, concurrentQueries: Int = 8, aheadFraction: Double = 0.75,
            pinBudget: PinBudget = .unlimited
        ) {
            self.pinBudget = pinBudget
            self.aheadFraction = aheadFraction
            self.posters = posters
            self.posterSize = posterSize
            self.language = language
            self.concurrentQueries = max(1, concurrentQueries)
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
    /// TMDB's change feed, read at the start of the refreshes (`nil`: not followed).
    let changeFeed: ChangeFeedSync?
    /// The TMDB accounts, each pulled at the start of a refresh of its owner's lists (`nil`: none).
    let account: AccountDirectory?
    /// Where each owner's last refresh is kept across restarts (`nil`: in memory only).
    let history: (any RefreshHistoryStorage)?
    var historyRead = false
    /// Probes TMDB at the start of a refresh while background work is paused (`nil`: never).
    let probe: RemoteProbe?
    /// The runs and their entries, counted as each run ends (for the daemon's metrics).
    public nonisolated let metrics = RefreshMetrics()
    /// The runs going and waiting, by id (ids grow in the order they were asked for).
    var runs: [Int: RefreshRun] = [:]
    var nextRunID = 0
    /// Steps reported so far, to tell which of several runs' latest steps is the newest.
    var reportedSteps = 0
    /// The change feed's run that the runs going together share (cleared when none is left).
    var changeFeedRun: Task<Int?, Never>?
    /// The probe of TMDB in flight, that runs starting meanwhile wait for rather than send another.
    var probeRun: Task<Void, Never>?
    /// The last refresh of each owner's lists, this process's or recorded before the start.
    var lastByOwner: [Owner: RefreshSummary] = [:]
    /// The owners whose pins reached their budget: their entries not pinned yet are not fetched
    /// (by their run, until it ends; by the scheduler, until their next run looks again).
    var pinsFull: Set<Owner> = []

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

    /// Refreshes the lists of `target`: one run per owner, each joining the run of that owner
    /// that covers it or queued behind that owner's runs (see the type's summary).
    public func refresh(_ target: RefreshTarget, mode: RefreshMode, onProgress: @escaping @Sendable (RefreshProgress) -> Void) async throws -> RefreshSummary {
        let owners = try await owners(of: target)
        if owners.count == 1, let owner = owners.first {
            return try await run(of: owner, name: target.name, mode: mode, onProgress: onProgress).value
        }
        let start = now()
        let aggregator = RefreshProgressAggregator(onProgress: onProgress)
        let parts = owners.enumerated().map { index, owner in
            run(of: owner, name: target.name, mode: mode, onProgress: aggregator.reporter(ofPart: index))
        }
        var summaries: [RefreshSummary] = []
        var failure: (any Error)?
        // Every part is awaited, even after one failed: whoever joined them gets their summaries.
        for part in parts {
            do {
                summaries.append(try await part.value)
            } catch {
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
        return RefreshSummary.merged(summaries, start: start, end: now())
    }

    /// Cancels every refresh, running or waiting (daemon shutdown).
    public func cancelRunning() {
        for run in runs.values { run.task.cancel() }
        changeFeedRun?.cancel()
    }

    /// A refresh someone asked for (`movies refresh`) is an explicit command: it probes TMDB at
    /// once when the retry pause is on, then runs its steps as background work, so they go to
    /// TMDB when it is back and fail at once, without a request each, when it is not.
    func perform(runID: Int, owner: Owner, name: String?, mode: RefreshMode) async throws -> RefreshSummary {
        if let probe = sharedProbe() { await probe.value }
        return try await RemoteDemand.$current.withValue(.background) {
            // The system's lane for the change feed; each list's steps go in its owner's.
            try await RateLimitLane.$current.withValue(RateLimitLane(uid: nil, priority: .background)) {
                try await performSteps(runID: runID, owner: owner, name: name, mode: mode)
            }
        }
    }

    private func performSteps(runID: Int, owner: Owner, name: String?, mode: RefreshMode) async throws -> RefreshSummary {
        let start = now()
        pinsFull.remove(owner)
        let target = RefreshTarget(owners: [owner], name: name)
        // The account's lists first: its watchlist is refreshed and pinned as one more list.
        if let account { await account.pullNow(owners: [owner]) }
        // Only the owner's lists are read: a refresh of one user's lists (and its error for a name
        // they have not) takes no longer for what other users keep.
        let lists = try await watchlists.watchlists(of: [owner]).filter(target.includes)
        if let name, lists.isEmpty { throw MoviesError.noSuchWatchlist(name) }
        var tally = RefreshTally()
        tally.total = lists.reduce(0) { sum, list in
            sum + list.queries.reduce(0) { $0 + $1.pages } + list.movieIDs.count * (settings.posters ? 2 : 1)
        }
        // The change feed first: what changed is marked stale (and pinned movies fetched again)
        // before the lists are; a feed that cannot be read does not stop the refresh.
        if let feed = sharedChangeFeed() { tally.changed = await feed.value }
        let scope = target.description
        events.record(DataEvent(.info, "refresh.started", "refresh of \(scope) started: \(lists.count) list(s), \(tally.total) step(s)"))
        do {
            try await refreshLists(lists, runID: runID, mode: mode, tally: &tally)
        } catch {
            events.record(DataEvent(.notice, "refresh.cancelled", "refresh of \(scope) stopped after \(tally.done + tally.failed + tally.skipped + tally.current) of \(tally.total) step(s)"))
            metrics.cancelled()
            throw error
        }
        await pinEntries(of: owner, replacing: name == nil, tally: &tally)
        let summary = tally.summary(start: start, end: now())
        metrics.completed(summary)
        // Kept for `Status`, across restarts; a run that found no list is its owner's last
        // refresh too. A storage failure is reported by the storage's health.
        await loadHistory()
        lastByOwner[owner] = summary
        try? await history?.saveLastRefresh(summary, of: owner)
        let severity: DataEvent.Severity = summary.failed > 0 ? .warning : tally.overBudget > 0 ? .notice : .info
        let firstError = summary.firstError.map { "; first error: \($0)" } ?? ""
        let overBudget = tally.overBudget > 0
            ? "; \(tally.overBudget) not pinned: \(owner)'s pins reached their \(settings.pinBudget.bytes(for: owner))-byte budget (\(owner == .system ? "[Cache] MaxBytes=" : "[Users] PinnedBytesPerUser="))"
            : ""
        events.record(DataEvent(
            severity, "refresh.finished",
            "refresh of \(scope) finished in \(Int(summary.durationSeconds.rounded())) s: \(summary.done) fetched, \(tally.current) current, \(summary.failed) failed, \(summary.skipped) skipped\(overBudget)\(firstError)"))
        return summary
    }

    private func refreshLists(_ lists: [Watchlist], runID: Int, mode: RefreshMode, tally: inout RefreshTally) async throws {
        for list in lists {
            tally.watchlist = list.name
            // Each list's requests wait for TMDB's rate limit in its owner's lane, so one user's
            // prefetch takes its turn with another's searches instead of going before them.
            try await RateLimitLane.$current.withValue(RateLimitLane(owner: list.owner, priority: .background)) {
                try await refreshQueries(list.queries, owner: list.owner, runID: runID, mode: mode, tally: &tally)
                try await refreshMovies(of: list, runID: runID, mode: mode, tally: &tally)
            }
        }
    }

    /// Pins the entries the run went through, in list order, within `owner`'s budget: all that
    /// `owner` pins when the run went through every list of theirs and nothing failed (their
    /// other pins go: entries that left the lists, or beyond a budget since lowered), else added
    /// to their pins. A failure leaves the pins as they were: the next refresh pins them.
    private func pinEntries(of owner: Owner, replacing: Bool, tally: inout RefreshTally) async {
        let budget = settings.pinBudget.bytes(for: owner)
        guard let pinned = try? await responses.pin(tally.keys, for: owner, within: budget, replacing: replacing && tally.failed == 0) else { return }
        tally.overBudget += pinned.refused
        tally.pinnedBytes = pinned.pinnedBytes
        tally.pinBudgetBytes = budget
        if tally.overBudget > 0 { pinsFull.insert(owner) } else { pinsFull.remove(owner) }
    }

    /// Pins `key`, just fetched, for `owner` (so that eviction cannot take it before the run
    /// ends); when it does not fit, `owner`'s pins are full.
    func pinFetched(_ key: String, for owner: Owner) async {
        let result = try? await responses.pin([key], for: owner, within: settings.pinBudget.bytes(for: owner), replacing: false)
        if let result, result.refused > 0 { pinsFull.insert(owner) }
    }

    private func refreshMovies(of list: Watchlist, runID: Int, mode: RefreshMode, tally: inout RefreshTally) async throws {
        for id in list.movieIDs {
            try Task.checkCancellation()
            let outcome = await run(.movie(id: id), owner: list.owner, mode: mode, tally: &tally)
            report(runID, tally.progress(RefreshStep.movie(id: id).label))
            guard settings.posters else { continue }
            guard case .movie(let path?)? = outcome else {
                tally.skipped += 1
                if pinsFull.contains(list.owner) { tally.overBudget += 1 }
                report(runID, tally.progress("poster of movie \(id) (none)"))
                continue
            }
            let poster = RefreshStep.poster(path: path, size: settings.posterSize)
            _ = await run(poster, owner: list.owner, mode: mode, tally: &tally)
            report(runID, tally.progress(poster.label))
        }
    }

    private func run(_ step: RefreshStep, owner: Owner, mode: RefreshMode, tally: inout RefreshTally) async -> RefreshStepOutcome? {
        let result = await attempt(step, owner: owner, mode: mode)
        if let key = RefreshTally.key(of: step, result, language: settings.language) { tally.keys.append(key) }
        return record(result, tally: &tally)
    }

    /// Fetches `step` if due (`fetchIfDue`), returning what it did or its failure; nothing once
    /// `owner`'s pins are full (`RefreshStepDone.overBudget`).
    func attempt(_ step: RefreshStep, owner: Owner, mode: RefreshMode) async -> Result<RefreshStepDone, MoviesError> {
        guard !pinsFull.contains(owner) else { return .success(.overBudget) }
        do {
            return .success(try await fetchIfDue(step, owner: owner, mode: mode))
        } catch {
            return .failure(MoviesError(wrapping: error))
        }
    }

    /// Counts the result of one step in `tally`; returns its outcome when it succeeded.
    func record(_ result: Result<RefreshStepDone, MoviesError>, tally: inout RefreshTally) -> RefreshStepOutcome? {
        switch result {
        case .success(let done):
            guard let outcome = done.outcome else {
                tally.skipped += 1
                tally.overBudget += 1
                return nil
            }
            if done.fetched { tally.done += 1 } else { tally.current += 1 }
            return outcome
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

    func report(_ runID: Int, _ progress: RefreshProgress) {
        reportedSteps += 1
        runs[runID]?.latest = (progress, reportedSteps)
        for subscriber in runs[runID]?.subscribers ?? [] { subscriber(progress) }
    }
}
