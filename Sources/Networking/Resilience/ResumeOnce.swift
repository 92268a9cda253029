import Synchronization

/// A continuation that is resumed exactly once, whoever comes first (the answer, a timer or a
/// cancellation); later results are dropped. Cleanups (cancel the losers) run when the result is chosen.
final class ResumeOnce<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var pending: Result<Value, any Error>?
        var resolved = false
        var cleanups: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    /// Hands over the continuation; resumes it at once if a result was chosen before.
    func install(_ continuation: CheckedContinuation<Value, any Error>) {
        let pending: Result<Value, any Error>? = state.withLock { state in
            if let pending = state.pending {
                state.pending = nil
                return pending
            }
            state.continuation = continuation
            return nil
        }
        if let pending { continuation.resume(with: pending) }
    }

    /// Chooses `result` if none was chosen yet, resumes the continuation and runs the cleanups.
    func resume(_ result: Result<Value, any Error>) {
        let chosen: (CheckedContinuation<Value, any Error>?, [@Sendable () -> Void])? = state.withLock { state in
            guard !state.resolved else { return nil }
            state.resolved = true
            let continuation = state.continuation
            state.continuation = nil
            if continuation == nil { state.pending = result }
            let cleanups = state.cleanups
            state.cleanups = []
            return (continuation, cleanups)
        }
        guard let (continuation, cleanups) = chosen else { return }
        continuation?.resume(with: result)
        for cleanup in cleanups { cleanup() }
    }

    /// Whether a result was chosen (the caller was answered, timed out or cancelled).
    var isResolved: Bool { state.withLock { $0.resolved } }

    /// Registers work to do once a result is chosen; runs it now if one already was.
    func onResolve(_ cleanup: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state in
            if state.resolved { return true }
            state.cleanups.append(cleanup)
            return false
        }
        if runNow { cleanup() }
    }
}
