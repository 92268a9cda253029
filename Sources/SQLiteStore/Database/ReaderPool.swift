import Synchronization

/// The store's idle read-only connections and the reads waiting for one. A read that finds every
/// connection busy suspends until one is given back, first come first served: it holds no thread
/// meanwhile, as GRDB's `DatabasePool` waits for a reader without blocking its caller.
///
/// Generic over what it hands out, so its tests can use plain values.
final class ReaderPool<Reader: Sendable>: Sendable {
    private typealias Waiter = CheckedContinuation<Reader?, Never>

    private struct State {
        /// The idle readers; the one given back last is handed out first (its pages are warm).
        var idle: [Reader]
        /// The waiting reads, oldest first, each under the id its cancellation handler knows.
        var waiters: [(id: UInt64, continuation: Waiter)] = []
        var lastID: UInt64 = 0
    }

    private enum Attempt {
        case taken(Reader)
        case waits(id: UInt64)
    }

    private let state: Mutex<State>
    /// Called each time a read has started to wait (tests synchronise on it instead of sleeping).
    private let onWait: (@Sendable () -> Void)?

    /// Creates a pool of `readers`, all idle.
    init(_ readers: [Reader], onWait: (@Sendable () -> Void)? = nil) {
        state = Mutex(State(idle: readers))
        self.onWait = onWait
    }

    /// How many readers are idle now.
    var idleCount: Int { state.withLock { $0.idle.count } }

    /// An idle reader, at once if there is one, else the next one given back.
    /// - Throws: `CancellationError` when the task is cancelled while it waits (a reader found idle
    ///   is handed out even to a cancelled task: a read is short, and its caller decides).
    func take() async throws(CancellationError) -> Reader {
        let attempt = state.withLock { state -> Attempt in
            if let reader = state.idle.popLast() { return .taken(reader) }
            state.lastID += 1
            return .waits(id: state.lastID)
        }
        let id: UInt64
        switch attempt {
        case .taken(let reader): return reader
        case .waits(let waiterID): id = waiterID
        }
        let reader = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Waiter) in
                let now = state.withLock { state -> Reader?? in
                    if let reader = state.idle.popLast() { return .some(reader) }  // given back meanwhile
                    if Task.isCancelled { return .some(nil) }
                    state.waiters.append((id, continuation))
                    return nil
                }
                if let now {
                    continuation.resume(returning: now)
                } else {
                    onWait?()
                }
            }
        } onCancel: {
            // A reader handed over before this ran stays with the read; none is lost either way.
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(returning: nil)
        }
        guard let reader else { throw CancellationError() }
        return reader
    }

    /// Gives `reader` back: to the read that has waited longest, else to the idle ones.
    func giveBack(_ reader: Reader) {
        let waiter = state.withLock { state -> Waiter? in
            guard !state.waiters.isEmpty else {
                state.idle.append(reader)
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        waiter?.resume(returning: reader)
    }
}
