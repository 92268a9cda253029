import Synchronization
import MoviesDomain

/// What changed in the stub's catalogue, and when: the data behind `GET /3/movie/changes` and
/// `GET /3/movie/{id}/changes`, recorded through the control port (`POST /changes`). A change of
/// a movie's `title` also changes the title its details carry (" (revision N)"), so a client
/// that fetches it again can tell.
public final class StubChangeLog: Sendable {
    /// One recorded change.
    public struct Change: Sendable, Hashable {
        public var day: CalendarDay
        /// The time of day of the edit, `hh:mm:ss` (UTC).
        public var time: String
        public var movieID: Int
        public var keys: [String]
    }

    private let changes = Mutex<[Change]>([])

    /// Creates an empty log.
    public init() {}

    /// Records that `ids` changed on `day` at `time` (their `keys`); by default at the day's
    /// last second, so that a copy fetched that day counts as older than the change.
    public func record(ids: [Int], day: CalendarDay, time: String = "23:59:59", keys: [String]) {
        changes.withLock { log in
            for id in ids { log.append(Change(day: day, time: time, movieID: id, keys: keys)) }
        }
    }

    /// Forgets every change (`POST /reset`).
    public func removeAll() {
        changes.withLock { $0.removeAll() }
    }

    /// The ids changed between `start` and `end` (both included), most recent change first.
    public func changedIDs(from start: CalendarDay, to end: CalendarDay) -> [Int] {
        let inWindow = changes.withLock { log in log.filter { start <= $0.day && $0.day <= end } }
        var latest: [Int: CalendarDay] = [:]
        for change in inWindow { latest[change.movieID] = max(latest[change.movieID] ?? change.day, change.day) }
        return latest.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
    }

    /// The changes of movie `id` between `start` and `end`.
    public func changes(of id: Int, from start: CalendarDay, to end: CalendarDay) -> [Change] {
        changes.withLock { log in log.filter { $0.movieID == id && start <= $0.day && $0.day <= end } }
    }

    /// How many title changes movie `id` has had (its details say " (revision N)" after them).
    public func titleRevisions(of id: Int) -> Int {
        changes.withLock { log in log.count { $0.movieID == id && $0.keys.contains("title") } }
    }

    /// Every change, as the control port lists them.
    public var all: [Change] { changes.withLock { $0 } }
}
