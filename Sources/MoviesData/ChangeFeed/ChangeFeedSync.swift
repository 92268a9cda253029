import FoundationEssentials
import MoviesDomain
import SystemSupport

/// Follows TMDB's change feed (`GET /3/movie/changes`) so that cached movies are fetched again
/// only when TMDB changed them.
///
/// A run reads every page of the windows from the persisted cursor, less one day of overlap (the
/// feed is date-granular), to today, in windows of at most 14 days. Only when every page was read
/// does it apply them, in one transaction with the cursor (`ChangeFeedStorage.applyChanges`):
/// changed movies go stale, unchanged ones known current since the windows' start stay fresh for
/// `Settings.validity` more. A run killed or failing mid-paging changes nothing, and running it
/// again reads the same windows. Changed pinned movies are then fetched again at once: their
/// details when any text changed (`GET /3/movie/{id}/changes`), only their poster when only
/// images did. A cursor older than `Settings.maxCatchUpDays`, or a window TMDB refuses, cannot be
/// bridged: every pinned movie is fetched again.
public actor ChangeFeedSync {
    /// When and how far the feed is read.
    public struct Settings: Sendable, Hashable {
        /// Seconds between runs (`runIfDue`).
        public var interval: Double
        /// How long a movie the feed did not list stays fresh after a run (longer than
        /// `interval`, so it is still fresh when the next run confirms it again).
        public var validity: Double
        /// The oldest cursor a run bridges; an older one means a full revalidation of pinned movies.
        public var maxCatchUpDays: Int
        /// The language of the cached details and posters fetched again (`nil`: TMDB's default).
        public var language: String?
        /// The poster size fetched again after an `images` change.
        public var posterSize: PosterSize

        /// Creates settings (defaults: daily, fresh for 36 h, up to 90 days of catching up).
        public init(interval: Double = 86_400, validity: Double? = nil, maxCatchUpDays: Int = 90, language: String? = nil, posterSize: PosterSize = .w342) {
            self.interval = max(60, interval)
            self.validity = max(validity ?? self.interval * 1.5, self.interval)
            self.maxCatchUpDays = max(1, maxCatchUpDays)
            self.language = language
            self.posterSize = posterSize
        }
    }

    /// The longest window TMDB accepts, in days (both ends included: 14 days apart at most).
    static let windowDays = 14
    /// The days read again before the cursor (the feed has dates, not times).
    static let overlapDays = 1
    /// The most pages read from one window (TMDB caps paging; a bound, not an expectation).
    static let maxPagesPerWindow = 1_000

    private let remote: any MoviesRemote
    private let storage: any ChangeFeedStorage
    private let movies: any MoviesRepository
    private let posterImages: any PosterImagesRepository
    private let health: RemoteHealth
    private let settings: Settings
    private let now: @Sendable () -> Date
    private let events: any EventLog
    private var running: Task<ChangeFeedStatus, any Error>?
    /// Runs since the daemon started, by outcome: applied (`ok`), applied as a full revalidation,
    /// failed (in `RunOutcome`'s order).
    private nonisolated let runCounts = AtomicCounters(count: RunOutcome.allCases.count)

    /// How a run of the change feed ended, as the daemon's metrics count it.
    public enum RunOutcome: String, Sendable, CaseIterable {
        /// Every page was read and applied.
        case applied
        /// The cursor was too old (or the window refused): every pinned movie fetched again.
        case fullRevalidation = "full_revalidation"
        /// The feed could not be read or applied; nothing changed.
        case failed
    }

    /// Runs since the daemon started, by outcome.
    public nonisolated var runs: [RunOutcome: UInt64] {
        Dictionary(uniqueKeysWithValues: RunOutcome.allCases.enumerated().map { ($1, runCounts.value(at: $0)) })
    }
    /// When the next run is due, once known (the scheduler asks every pass: no read each time).
    private var dueAt: Date?
    /// Whether this process has run the feed yet: a failure recorded by an earlier process (the
    /// token missing or refused before a restart) is retried at once, not an hour later, so
    /// `Status` does not keep showing a cause the restart may have fixed.
    private var ranSinceStart = false

    /// Creates the follower of the feed.
    public init(
        remote: any MoviesRemote, storage: any ChangeFeedStorage, movies: any MoviesRepository,
        posterImages: any PosterImagesRepository, health: RemoteHealth, settings: Settings = Settings(),
        now: @escaping @Sendable () -> Date = { Date() }, events: any EventLog = DiscardingEventLog()
    ) {
        self.remote = remote
        self.storage = storage
        self.movies = movies
        self.posterImages = posterImages
        self.health = health
        self.settings = settings
        self.now = now
        self.events = events
    }

    /// The persisted cursor and last run.
    public func status() async -> ChangeFeedStatus? {
        try? await storage.changeFeedStatus()
    }

    /// Runs when the last run is `Settings.interval` old (or there was none, or it failed an
    /// hour or more ago); returns whether it ran and succeeded.
    @discardableResult
    public func runIfDue() async -> Bool {
        if let dueAt, now() < dueAt { return false }
        guard let status = try? await storage.changeFeedStatus() else { return false }
        dueAt = nextRun(after: status)
        if let dueAt, now() < dueAt { return false }
        return (try? await run()) != nil
    }

    /// When a run after `status` is due: an interval after a success, at most an hour after a
    /// failure (now, when an earlier process recorded it); now, before the first run.
    private func nextRun(after status: ChangeFeedStatus) -> Date? {
        guard let last = status.lastRunAt, ranSinceStart || status.lastOutcome != .failed else { return nil }
        return last.addingTimeInterval(status.lastOutcome == .failed ? min(3_600, settings.interval) : settings.interval)
    }

    /// One run (or the one already running); returns the status it recorded.
    @discardableResult
    public func run() async throws -> ChangeFeedStatus {
        if let running { return try await running.value }
        ranSinceStart = true
        let task = Task { try await self.perform() }
        running = task
        defer { running = nil }
        do {
            let status = try await task.value
            dueAt = nextRun(after: status)
            runCounts.add(at: status.lastOutcome == .fullRevalidation ? 1 : 0)
            return status
        } catch {
            dueAt = nil  // read again: the failure was recorded with its time
            runCounts.add(at: 2)
            throw error
        }
    }

    private func perform() async throws -> ChangeFeedStatus {
        let started = now()
        let previous = try await storage.changeFeedStatus()
        let today = CalendarDay(started)
        var since: CalendarDay? = previous.syncedThrough.flatMap(CalendarDay.init).map { $0.adding(days: -Self.overlapDays) }
            ?? today.adding(days: -Self.overlapDays)
        if let start = since, today.day - start.day > settings.maxCatchUpDays { since = nil }
        var requests = 0
        var changed = Set<Int>()
        if let start = since {
            do {
                for window in Self.windows(from: start, to: today) {
                    changed.formUnion(try await changedIDs(in: window, requests: &requests))
                }
            } catch let failure as MoviesError where failure.tmdbCode == 20 || failure.httpStatus == 422 {
                // TMDB will not serve these windows: nothing bridges the gap.
                since = nil
            } catch {
                let failure = MoviesError(wrapping: error)
                var status = previous
                status.lastRunAt = now()
                status.lastOutcome = .failed
                status.lastError = failure.message
                status.requests = requests
                try? await storage.recordChangeFeedRun(status)
                events.record(DataEvent(.warning, "changes.failed", "the change feed could not be read (\(failure.message)); the cursor stays at \(previous.syncedThrough ?? "none")"))
                throw failure
            }
        }
        let changes = ChangeFeedChanges(
            changedIDs: changed, coveredSince: since?.start, validUntil: started.addingTimeInterval(settings.validity),
            now: started, syncedThrough: today.description)
        var status = ChangeFeedStatus(
            syncedThrough: today.description, lastRunAt: started, lastOutcome: since == nil ? .fullRevalidation : .ok, requests: requests)
        let applied = try await storage.applyChanges(changes, status: status)
        status.changedCached = applied.changedCached
        status.validated = applied.validated
        for id in applied.pinnedChanged {
            if try await refetch(id, changedSince: since, until: today, requests: &requests) { status.refetched += 1 }
        }
        status.requests = requests
        status.lastRunAt = now()
        try await storage.recordChangeFeedRun(status)
        events.record(DataEvent(
            .info, "changes.applied",
            "change feed through \(today): \(changed.count) changed movie(s) listed, \(applied.changedCached) cached, \(status.refetched) pinned fetched again, \(applied.validated) kept fresh, \(requests) request(s)"
                + (since == nil ? " (cursor too old: every pinned movie fetched again)" : "")))
        return status
    }

    /// The windows from `start` to `end`, both included, each at most `windowDays` long.
    static func windows(from start: CalendarDay, to end: CalendarDay) -> [(CalendarDay, CalendarDay)] {
        var windows: [(CalendarDay, CalendarDay)] = []
        var first = start
        while first <= end {
            let last = min(end, first.adding(days: windowDays - 1))
            windows.append((first, last))
            first = last.adding(days: 1)
        }
        return windows
    }

    /// Every id the feed lists in `window`, page after page until its last.
    private func changedIDs(in window: (CalendarDay, CalendarDay), requests: inout Int) async throws -> Set<Int> {
        var ids = Set<Int>()
        var page = 1
        while page <= Self.maxPagesPerWindow {
            try Task.checkCancellation()
            let body = try await fetch(.movieChanges(startDate: window.0.description, endDate: window.1.description, page: page), requests: &requests)
            let list = try ChangedMoviesDTO.decode(body)
            ids.formUnion(list.results.map(\.id))
            guard page < list.totalPages else { break }
            page += 1
        }
        return ids
    }

    /// Fetches pinned movie `id` again after a change: nothing when the cached copy was fetched
    /// after the movie's last edit (the feed lists days; the movie's changes say when), only its
    /// poster when only its images changed, else its details. On failure it is left stale, for
    /// the scheduler to retry. Returns whether anything was fetched.
    private func refetch(_ id: Int, changedSince since: CalendarDay?, until today: CalendarDay, requests: inout Int) async throws -> Bool {
        let language = settings.language
        var keys: Set<String> = []
        var latestEdit: Date?
        if let since, let body = try? await fetch(.movieChangeKeys(id: id, startDate: since.description, endDate: today.description), requests: &requests),
           let changes = try? MovieChangesDTO.decode(body) {
            keys = Set(changes.changes.map(\.key))
            latestEdit = changes.latestEdit
        }
        let cached = try? await FetchedUpdates.last(of: { try await movies.movieDetails(id: id, language: language, policy: .cacheOnly, emit: $0) })
        if let latestEdit, let cached, cached.freshness.fetchedAt > latestEdit {
            // Fetched after its last edit (the feed lists days, the movie's changes times): current.
            try? await storage.setMoviesFresh([id], until: now().addingTimeInterval(settings.validity), now: now())
            return false
        }
        do {
            if keys == ["images"], let path = cached?.value.posterPath {
                let size = settings.posterSize
                requests += 1
                _ = try await FetchedUpdates.last(of: { try await posterImages.posterImage(path: path, size: size, policy: .networkOnly, emit: $0) })
                try await storage.setMoviesFresh([id], until: now().addingTimeInterval(settings.validity), now: now())
            } else {
                requests += 1
                _ = try await FetchedUpdates.last(of: { try await movies.movieDetails(id: id, language: language, policy: .networkOnly, emit: $0) })
            }
            return true
        } catch {
            try? await storage.setMoviesFresh([id], until: nil, now: now())
            return false
        }
    }

    /// One feed request's body, through the remote's health gate.
    private func fetch(_ request: RemoteRequest, requests: inout Int) async throws -> Data {
        if let gated = await health.gate(for: RemoteDemand.current ?? .background) { throw gated }
        requests += 1
        do {
            let response = try await remote.fetch(request, etag: nil)
            await health.recordSuccess()
            return response.body
        } catch {
            // Recorded as every fetch from TMDB records it (`RemoteHealth` tells the kinds apart).
            let failure = MoviesError(wrapping: error)
            if failure.code != .cancelled { await health.recordFailure(failure) }
            throw failure
        }
    }
}
