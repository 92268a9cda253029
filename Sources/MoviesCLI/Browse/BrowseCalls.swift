import Glibc
import MoviesDomain
import Synchronization
import SystemSupport

/// Carries out the browse screen's daemon calls off the terminal's thread, so keys are read and
/// frames drawn while the daemon answers; each answer comes back as a `BrowseEvent` (`take()`),
/// and the event loop is woken (`LoopWaker`).
///
/// Every call runs on a thread of its own with its own connection (the client blocks), except the
/// type-ahead's local searches: they take turns on one lane where only the latest waiting search
/// runs (a search superseded while it waited ends at once, unrun), so fast typing never queues
/// stale searches. The model bounds the rest: one default-policy search per typing pause, one
/// page load at a time.
final class BrowseCalls: Sendable {
    private struct Lane {
        var running = false
        var waiting: (id: Int, parameters: SearchParameters)?
    }

    private let connect: @Sendable () -> any MoviesClient
    private let openLink: @Sendable (String) -> String?
    private let wake: LoopWaker
    private let events = Mutex<[BrowseEvent]>([])
    private let typeahead = Mutex(Lane())
    /// Recent queries being saved: the screen may quit before their threads have sent them.
    private let savesInFlight = Mutex(0)

    /// Creates a runner that opens connections with `connect`, opens links in the browser with
    /// `openLink` (which returns why it could not) and wakes the loop through `wake`.
    init(connect: @escaping @Sendable () -> any MoviesClient, openLink: @escaping @Sendable (String) -> String?, wake: LoopWaker) {
        self.connect = connect
        self.openLink = openLink
        self.wake = wake
    }

    /// The answers that came since the last call, in order.
    func take() -> [BrowseEvent] {
        events.withLock { events in
            defer { events = [] }
            return events
        }
    }

    /// Starts the call `effect` asks for (other effects are the session's).
    func perform(_ effect: BrowseEffect) {
        if case .search(let id, let parameters) = effect, parameters.policy == .localOnly {
            enqueueLocal(id: id, parameters)
            return
        }
        if case .openLink(let link) = effect {
            let started = NativeThread.detached { [self] in post(.linkOpened(link: link, failure: openLink(link))) }
            if !started { post(.linkOpened(link: link, failure: "no thread could be started; try again")) }
            return
        }
        let saves = if case .saveRecentQuery = effect { true } else { false }
        if saves { savesInFlight.withLock { $0 += 1 } }
        let started = NativeThread.detached { [self] in
            run(effect, client: connect())
            if saves { savesInFlight.withLock { $0 -= 1 } }
        }
        if !started, saves { savesInFlight.withLock { $0 -= 1 } }
        if !started, let event = Self.failure(of: effect, .other("no thread could be started for the call; try again")) { post(event) }
    }

    /// Waits, at most `seconds`, for the recent queries being saved to reach the daemon: quitting
    /// right after opening a movie (Enter, then q or Ctrl-C) must not lose its query.
    func finishSaves(within seconds: Double) {
        let deadline = MonotonicClock.now() + UInt64(max(0, seconds) * 1e9)
        var pause = timespec(tv_sec: 0, tv_nsec: 2_000_000)
        while savesInFlight.withLock({ $0 }) > 0, MonotonicClock.now() < deadline {
            nanosleep(&pause, nil)
        }
    }

    private func enqueueLocal(id: Int, _ parameters: SearchParameters) {
        let (superseded, start) = typeahead.withLock { lane -> (Int?, Bool) in
            let superseded = lane.waiting?.id
            lane.waiting = (id, parameters)
            guard !lane.running else { return (superseded, false) }
            lane.running = true
            return (superseded, true)
        }
        if let superseded { post(.searchEnded(id: superseded, nil)) }
        guard start else { return }
        let started = NativeThread.detached { [self] in
            let client = connect()
            while let next = typeahead.withLock({ lane -> (id: Int, parameters: SearchParameters)? in
                defer { lane.waiting = nil }
                if lane.waiting == nil { lane.running = false }
                return lane.waiting
            }) {
                run(.search(id: next.id, next.parameters), client: client)
            }
        }
        if !started {
            typeahead.withLock { $0 = Lane() }
            post(.searchEnded(id: id, .other("no thread could be started for the search; try again")))
        }
    }

    private func run(_ effect: BrowseEffect, client: any MoviesClient) {
        switch effect {
        case .search(let id, let parameters):
            do {
                try client.search(parameters) { reply in post(.searchReplied(id: id, reply.value, continues: reply.continues)) }
                post(.searchEnded(id: id, nil))
            } catch {
                post(.searchEnded(id: id, error))
            }
        case .loadRecentQueries:
            post(.recentQueriesLoaded(Result { () throws(ClientError) in try client.recentQueries(limit: nil).value.queries }))
        case .saveRecentQuery(let query):
            // Best effort: a query not saved costs the user nothing on this screen.
            _ = try? client.saveRecentQuery(query)
        case .loadMovie(let id, let movieID):
            do {
                try client.movie(id: movieID, language: nil, policy: nil) { reply in post(.movieReplied(id: id, reply.value, continues: reply.continues)) }
                post(.movieEnded(id: id, nil))
            } catch {
                post(.movieEnded(id: id, error))
            }
        case .loadPoster(let id, let path, let width):
            post(.posterLoaded(id: id, Result { () throws(ClientError) in try client.poster(path: path, width: width).value }))
        case .addToWatchlist(let edit):
            post(.watchlistEdited(edit, Result { () throws(ClientError) in try client.addToWatchlist(edit).value.watchlist.name }))
        case .editAccount(let edit, let title):
            post(.accountEdited(edit, title: title, Result { () throws(ClientError) in try client.accountEdit(edit, waitSeconds: nil).value }))
        case .suspend, .redraw, .quit, .openLink, .copyToClipboard:
            break
        }
    }

    private func post(_ event: BrowseEvent) {
        events.withLock { $0.append(event) }
        wake.wake()
    }

    /// The event that ends `effect` with `error`, for a call that could not start; `nil` for a
    /// call whose failure nothing waits for.
    private static func failure(of effect: BrowseEffect, _ error: ClientError) -> BrowseEvent? {
        switch effect {
        case .search(let id, _): .searchEnded(id: id, error)
        case .loadMovie(let id, _): .movieEnded(id: id, error)
        case .loadPoster(let id, _, _): .posterLoaded(id: id, .failure(error))
        case .addToWatchlist(let edit): .watchlistEdited(edit, .failure(error))
        case .editAccount(let edit, let title): .accountEdited(edit, title: title, .failure(error))
        case .openLink(let link): .linkOpened(link: link, failure: error.message)
        case .saveRecentQuery: nil
        case .loadRecentQueries, .suspend, .redraw, .quit, .copyToClipboard: .recentQueriesLoaded(.failure(error))
        }
    }
}
