import Synchronization

/// The deadlines of async work in flight, on one shared timer (reading ``MonotonicClock``): the network request deadline and the
/// daemon's answer deadline both schedule here. (The event loop's call deadlines are its epoll
/// timeouts, and SQLite's are its progress handler: those run where no task can.)
///
/// Arming a `Task.sleep` per call cost a dispatch timer per request even though almost every
/// answer arrives long before its deadline; instead, one ticker task runs while deadlines are
/// pending and fires those that are due, at most `resolution` late, in deadline order. The ticker ends when nothing is
/// pending and the next deadline starts a new one.
public final class DeadlineTimer: Sendable {
    private struct Pending {
        var due: UInt64
        var fire: @Sendable () -> Void
    }

    private struct State {
        var pending: [UInt64: Pending] = [:]
        var lastID: UInt64 = 0
        var tickerRunning = false
    }

    /// The process's timer.
    public static let shared = DeadlineTimer()

    private let state = Mutex(State())
    private let resolution: Duration

    /// Creates a timer that checks for due deadlines every `resolution`.
    public init(resolution: Duration = .milliseconds(50)) {
        self.resolution = resolution
    }

    /// Calls `fire` once, `delay` from now (up to `resolution` later), unless cancelled first.
    /// Returns the id to ``cancel(_:)`` it with.
    public func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> UInt64 {
        // A delay beyond the clock's range (`[Remote] DeadlineSec=100000w`) is never due, not at once.
        let (sum, overflow) = MonotonicClock.now().addingReportingOverflow(MonotonicClock.nanoseconds(delay))
        let due = overflow ? UInt64.max : sum
        let (id, startsTicker) = state.withLock { state in
            state.lastID += 1
            state.pending[state.lastID] = Pending(due: due, fire: fire)
            let starts = !state.tickerRunning
            state.tickerRunning = true
            return (state.lastID, starts)
        }
        if startsTicker { Task { await self.tick() } }
        return id
    }

    /// Forgets the deadline `id` (a no-op if it already fired).
    public func cancel(_ id: UInt64) {
        state.withLock { state in _ = state.pending.removeValue(forKey: id) }
    }

    private func tick() async {
        while true {
            try? await Task.sleep(for: resolution)
            let now = MonotonicClock.now()
            let due: [@Sendable () -> Void]? = state.withLock { state in
                let fired = state.pending.filter { $0.value.due <= now }
                guard !(fired.isEmpty && state.pending.isEmpty) else {
                    state.tickerRunning = false
                    return nil
                }
                for id in fired.keys { state.pending[id] = nil }
                // In deadline order (then scheduling order), however late the tick.
                return fired.sorted { ($0.value.due, $0.key) < ($1.value.due, $1.key) }.map(\.value.fire)
            }
            guard let due else { return }
            for fire in due { fire() }
        }
    }
}
