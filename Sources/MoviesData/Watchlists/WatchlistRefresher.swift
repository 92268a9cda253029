import FoundationEssentials
import MoviesDomain

/// Refreshes watchlists: fetches every search page up to each query's depth (stopping at TMDB's
/// last page), each listed movie's details and, when enabled, their posters, through the ordinary
/// repositories with policy `network_only` (so results are stored exactly like interactive ones),
/// and pins what it stored so eviction never removes it.
///
/// One refresh runs at a time: a request while a covering refresh runs (the same list, or all
/// lists) joins it and gets its progress and summary; any other request waits for it to finish.
public actor WatchlistRefresher: WatchlistRefreshRepository {
    /// What to fetch besides pages and details.
    public struct Settings: Sendable, Hashable {
        /// Whether posters of the listed movies are prefetched.
        public var posters: Bool
        /// The poster size prefetched.
        public var posterSize: PosterSize
        /// The language of fetched pages and details (`nil`: TMDB's default, as `movies` asks).
        public var language: String?

        /// How many queries of a list are fetched at once (each query's pages one after another, as
        /// each page bounds the next). The remote's rate limiter paces them; a few in flight keep it
        /// busy despite TMDB's latency (8 fill 35 requests/s up to ~230 ms per answer).
        public var concurrentQueries: Int

        /// Creates settings (defaults: posters at w342, TMDB's default language, 8 queries at once).
        public init(posters: Bool = true, posterSize: PosterSize = .w342, language: String? = nil, concurrentQueries: Int = 8) {
            self.posters = posters
            self.posterSize = posterSize
            self.language = language
            self.concurrentQueries = max(1, concurrentQueries)
        }
    }

    private struct Run {
        let id: Int
        let target: String?
        let task: Task<RefreshSummary, any Error>
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
    /// The TMDB account, whose lists are pulled at the start of every refresh (`nil`: none).
    let account: AccountSync?
    /// Probes TMDB at the start of a refresh while background work is paused (`nil`: never).
    let probe: RemoteProbe?
    private var running: Run?
    private var nextRunID = 0
    private var subscribers: [Int: [@Sendable (RefreshProgress) -> Void]] = [:]
    private var latestProgress: RefreshProgress?
    private var last: RefreshSummary?

    /// Creates a refresher over the repositories the daemon serves from.
    public init(
        watchlists: any WatchlistRepository, movies: any MoviesRepository, posterImages: any PosterImagesRepository,
        responses: any ResponseStorage, settings: Settings = Settings(), now: @escaping @Sendable () -> Date = { Date() },
        events: any EventLog = DiscardingEventLog(), changeFeed: ChangeFeedSync? = nil, account: AccountSync? = nil,
        probe: RemoteProbe? = nil
    ) {
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

    /// Refreshes `watchlist` (all lists when `nil`), or joins the refresh already covering it.
    public func refresh(watchlist: String?, onProgress: @escaping @Sendable (RefreshProgress) -> Void) async throws -> RefreshSummary {
        while let current = running {
            if current.target == nil || current.target == watchlist {
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
            return try await self.perform(runID: id, target: watchlist)
        }
        running = Run(id: id, target: watchlist, task: task)
        return try await task.value
    }

    private func finishRun(_ id: Int) {
        if running?.id == id { running = nil }
        subscribers[id] = nil
    }

    /// The last completed refresh, if any.
    public func lastRefresh() -> RefreshSummary? { last }

    /// The progress of the refresh running now, if any.
    public func currentProgress() -> RefreshProgress? { running == nil ? nil : latestProgress }

    /// How many callers wait on the refresh running now (the starter and those who joined).
    var callersOfRunningRefresh: Int { running.map { subscribers[$0.id]?.count ?? 0 } ?? 0 }

    /// Cancels the refresh running now (daemon shutdown).
    public func cancelRunning() { running?.task.cancel() }

    /// A refresh someone asked for (`movies refresh`) is an explicit command: it probes TMDB at
    /// once when the retry pause is on, then runs its steps as background work, so they go to
    /// TMDB when it is back and fail at once, without a request each, when it is not.
    private func perform(runID: Int, target: String?) async throws -> RefreshSummary {
        if let probe { await probe.probeIfPaused() }
        return try await RemoteDemand.$current.withValue(.background) {
            try await performSteps(runID: runID, target: target)
        }
    }

    private func performSteps(runID: Int, target: String?) async throws -> RefreshSummary {
        let start = now()
        // The account's lists first: its watchlist is refreshed and pinned as one more list.
        if let account { await account.pullNow() }
        let all = try await watchlists.watchlists()
        let lists = all.filter { target == nil || $0.name == target }
        if let target, lists.isEmpty { throw MoviesError.noSuchWatchlist(target) }
        var tally = RefreshTally()
        tally.total = lists.reduce(0) { sum, list in
            sum + list.queries.reduce(0) { $0 + $1.pages } + list.movieIDs.count * (settings.posters ? 2 : 1)
        }
        // The change feed first: what changed is marked stale (and pinned movies fetched again)
        // before the lists are; a feed that cannot be read does not stop the refresh.
        if let changeFeed { _ = try? await changeFeed.run() }
        let scope = target.map { "watchlist '\($0)'" } ?? "all watchlists"
        events.record(DataEvent(.info, "refresh.started", "refresh of \(scope) started: \(lists.count) list(s), \(tally.total) step(s)"))
        do {
            try await refreshLists(lists, runID: runID, tally: &tally)
        } catch {
            events.record(DataEvent(.notice, "refresh.cancelled", "refresh of \(scope) stopped after \(tally.done + tally.failed + tally.skipped) of \(tally.total) step(s)"))
            throw error
        }
        let summary = tally.summary(start: start, end: now())
        last = summary
        let severity: DataEvent.Severity = summary.failed > 0 ? .warning : .info
        let firstError = summary.firstError.map { "; first error: \($0)" } ?? ""
        events.record(DataEvent(
            severity, "refresh.finished",
            "refresh of \(scope) finished in \(Int(summary.durationSeconds.rounded())) s: \(summary.done) done, \(summary.failed) failed, \(summary.skipped) skipped\(firstError)"))
        return summary
    }

    private func refreshLists(_ lists: [Watchlist], runID: Int, tally: inout RefreshTally) async throws {
        for list in lists {
            tally.watchlist = list.name
            try await refreshQueries(list.queries, runID: runID, tally: &tally)
            for id in list.movieIDs {
                try Task.checkCancellation()
                let outcome = await run(.movie(id: id), tally: &tally)
                report(runID, tally.progress(RefreshStep.movie(id: id).label))
                guard settings.posters else { continue }
                guard case .movie(let path?)? = outcome else {
                    tally.skipped += 1
                    report(runID, tally.progress("poster of movie \(id) (none)"))
                    continue
                }
                let poster = RefreshStep.poster(path: path, size: settings.posterSize)
                _ = await run(poster, tally: &tally)
                report(runID, tally.progress(poster.label))
            }
        }
    }

    private func run(_ step: RefreshStep, tally: inout RefreshTally) async -> RefreshStepOutcome? {
        record(await attempt(step), tally: &tally)
    }

    /// Fetches `step`, returning its outcome or its failure.
    func attempt(_ step: RefreshStep) async -> Result<RefreshStepOutcome, MoviesError> {
        do {
            return .success(try await fetch(step))
        } catch {
            return .failure(MoviesError(wrapping: error))
        }
    }

    /// Counts the result of one step in `tally`; returns its outcome when it succeeded.
    func record(_ result: Result<RefreshStepOutcome, MoviesError>, tally: inout RefreshTally) -> RefreshStepOutcome? {
        switch result {
        case .success(let outcome):
            tally.done += 1
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
        latestProgress = progress
        for subscriber in subscribers[runID] ?? [] { subscriber(progress) }
    }
}
