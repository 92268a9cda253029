import Synchronization

/// Wakes the refresh scheduler early (a watchlist was edited) instead of letting it sleep until
/// its next planned pass. One waiter at a time; a signal with no waiter is kept for the next wait.
public final class RefreshWakeSignal: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())
    /// Called each time a waiter has parked (tests synchronise on it instead of sleeping).
    private let onParked: (@Sendable () -> Void)?

    /// Creates a signal.
    public init() {
        onParked = nil
    }

    /// Creates a signal that calls `onParked` whenever a waiter has parked.
    init(onParked: @escaping @Sendable () -> Void) {
        self.onParked = onParked
    }

    /// Wakes the waiter, or the next one if none waits now.
    public func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns at the next signal (at once if one is pending), or when the task is cancelled.
    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.pending || Task.isCancelled {
                        state.pending = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if resumeNow {
                    continuation.resume()
                } else {
                    onParked?()
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}
