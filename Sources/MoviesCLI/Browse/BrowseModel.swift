import MoviesDomain

/// The browse screen's state machine: `handle` takes an event and the time, changes the state,
/// and returns the effects to carry out (daemon calls, suspend, quit). It does no I/O and reads
/// no clock: the session passes the monotonic time in, tests pass their own, so the typing pause
/// is tested without sleeping.
struct BrowseModel: Sendable {
    /// The pause after the last keystroke before the daemon is asked with its default policy
    /// (cached, then TMDB); each keystroke before that searches the local index only.
    static let searchPauseNanoseconds: UInt64 = 250_000_000
    /// The poster's box on the details screen, in cells (a 2:3 poster in cells twice as tall as wide).
    static let posterColumns = 24
    static let posterRows = 18
    /// The poster's width asked of the daemon, in pixels (TMDB's w185).
    static let posterPixelWidth = 185

    /// The state (changed by `handle` and the extensions it calls).
    var state = BrowseState()
    /// The watchlist `w` adds to.
    let watchlistName: String
    /// The policy, language and region of the daemon's searches (`movies.conf`'s `[Search]`).
    let searchDefaults: SearchDefaults

    /// A model for a session that starts with `query` (empty: the recent queries) on a
    /// `width` × `height` terminal, at time `now`; returns it with the effects to start with. A
    /// query given at the start is the user's whole query: its search is saved to the recent
    /// searches, as `movies search`'s is.
    static func start(
        query: String, watchlistName: String, width: Int, height: Int, now: UInt64, searchDefaults: SearchDefaults = SearchDefaults()
    ) -> (BrowseModel, [BrowseEffect]) {
        var model = BrowseModel(watchlistName: watchlistName, searchDefaults: searchDefaults)
        model.state.width = width
        model.state.height = height
        model.state.graphicsDeadline = now + GraphicsProbe.timeoutMilliseconds * 1_000_000
        var effects: [BrowseEffect] = [.loadRecentQueries]
        if !query.isEmpty {
            model.state.query = query
            effects += model.queryChanged(now: now, searchNow: true, remember: true)
        }
        return (model, effects)
    }

    private init(watchlistName: String, searchDefaults: SearchDefaults) {
        self.watchlistName = watchlistName
        self.searchDefaults = searchDefaults
    }

    /// The earliest time at which `handle(.tick, now:)` has something to do, if any.
    var nextDeadline: UInt64? {
        [state.searchDueAt, state.graphicsProbe.result == nil ? state.graphicsDeadline : nil].compactMap { $0 }.min()
    }

    /// Takes in `event`, which happened at `now` (monotonic nanoseconds); returns what to do.
    mutating func handle(_ event: BrowseEvent, now: UInt64) -> [BrowseEffect] {
        switch event {
        case .key(let key):
            return handleKey(key, now: now)
        case .mouse(let mouse):
            return handleMouse(mouse, now: now)
        case .linkOpened(let link, let failure):
            state.message = failure.map { "Could not open \(link): \($0)" } ?? "Opened \(link) in the browser."
            return []
        case .terminalReply(let reply):
            state.graphicsProbe.receive(reply)
            return posterIfNeeded()
        case .resized(let width, let height):
            state.width = max(width, 1)
            state.height = max(height, 1)
            keepSelectionVisible()
            // A taller screen may have rows to fill.
            return nextPageIfAtEnd()
        case .tick:
            return tick(now: now)
        case .searchReplied(let id, let reply, let continues):
            return searchReplied(id: id, reply, continues: continues)
        case .searchEnded(let id, let error):
            return searchEnded(id: id, error)
        case .recentQueriesLoaded(let result):
            switch result {
            case .success(let queries):
                state.recentQueries = queries
                state.recentQueriesError = nil
            case .failure(let error):
                state.recentQueriesError = error
            }
            if state.showsRecentQueries { clampSelection() }
            return []
        case .movieReplied(let id, let reply, let continues):
            return movieReplied(id: id, reply, continues: continues)
        case .movieEnded(let id, let error):
            movieEnded(id: id, error)
            return []
        case .posterLoaded(let id, let result):
            posterLoaded(id: id, result)
            return []
        case .watchlistEdited(let edit, let result):
            switch result {
            case .success(let name): state.message = "Added to the watchlist '\(TextFitting.printable(name))' (kept prefetched for offline use)."
            case .failure(let error): state.message = "Not added to '\(TextFitting.printable(edit.name))': \(error.message)"
            }
            return []
        case .accountEdited(let edit, let title, let result):
            switch result {
            case .success(let reply): state.message = AccountEditOutcome.describe(edit, reply, title: title)
            case .failure(let error): state.message = "Not recorded: \(error.message)"
            }
            return []
        }
    }

    private mutating func tick(now: UInt64) -> [BrowseEffect] {
        var effects: [BrowseEffect] = []
        if let deadline = state.graphicsDeadline, state.graphicsProbe.result == nil, now >= deadline {
            state.graphicsProbe.timedOut()
            effects += posterIfNeeded()
        }
        if let due = state.searchDueAt, now >= due {
            state.searchDueAt = nil
            effects += searchNow()
        }
        return effects
    }

    /// A new id for a daemon call.
    mutating func makeID() -> Int {
        defer { state.nextID += 1 }
        return state.nextID
    }

}
