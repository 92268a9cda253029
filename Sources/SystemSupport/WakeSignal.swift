import Synchronization

/// Wakes tasks that wait for "something changed" before their own timeout: the refresh scheduler
/// (a watchlist was edited), the account sync's service loop (an edit or a retry is due sooner),
/// edits waiting for the account outbox's progress, the index upkeep (a response was stored) and
/// services asked to stop (`GracefulShutdown`). (A thread asleep in poll(2) waits on a `LoopWaker`.)
///
/// A signal wakes every waiter parked at that moment; a signal with no waiter is kept for the next
/// wait, so one given between a waiter's check and its wait is not lost. A waiter re-checks what
/// it waits for after waking: a kept signal may wake it for a change it has already seen.
public final class WakeSignal: Sendable {
    private struct State {
        var pending = false
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var lastID: UInt64 = 0
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

    /// Wakes every waiter, or the next one if none waits now.
    public func signal() {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.waiters.isEmpty else {
                state.pending = true
                return []
            }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }

    /// Returns at the next signal (at once if one is pending), or when the task is cancelled.
    public func wait() async {
        let id = state.withLock { state -> UInt64 in
            state.lastID += 1
            return state.lastID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if Task.isCancelled { return true }
                    if state.pending {
                        state.pending = false
                        return true
                    }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow {
                    continuation.resume()
                } else {
                    onParked?()
                }
            }
        } onCancel: {
            state.withLock { state in state.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Returns at the next signal, when `sleep(seconds)` returns or throws, or when the task is
    /// cancelled, whichever comes first.
    /// - Parameter sleep: the clock's sleep (tests pass a virtual one); by default `Task.sleep`.
    public func wait(
        atMostSeconds seconds: Double,
        sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .seconds($0)) }
    ) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await sleep(seconds) }
            group.addTask { await self.wait() }
            await group.next()
            group.cancelAll()
        }
    }
}
