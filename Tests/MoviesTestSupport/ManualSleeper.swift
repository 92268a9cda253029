import Synchronization

/// A sleep for tests that ends only when the test says the time has passed: `sleep` suspends until
/// ``elapse()``; a cancelled sleeper throws `CancellationError` at once. No real time is involved,
/// so a starved machine cannot make a deadline fire early or late.
public final class ManualSleeper: Sendable {
    private struct State {
        var sleepers: [UInt64: (seconds: Double, continuation: CheckedContinuation<Void, any Error>)] = [:]
        var lastID: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Creates a sleeper with nobody asleep.
    public init() {}

    /// How many callers are asleep now.
    public var sleeping: Int { state.withLock { $0.sleepers.count } }

    /// The durations the current sleepers asked for.
    public var requested: [Double] { state.withLock { $0.sleepers.values.map(\.seconds) } }

    /// Sleeps until ``elapse()`` (or throws `CancellationError` when the calling task is cancelled).
    public func sleep(_ seconds: Double) async throws {
        let id = state.withLock { state in
            state.lastID += 1
            return state.lastID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelled = state.withLock { state in
                    if Task.isCancelled { return true }
                    state.sleepers[id] = (seconds, continuation)
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Ends every current sleep, as if its time had passed; returns how many there were.
    @discardableResult
    public func elapse() -> Int {
        let woken = state.withLock { state in
            let all = state.sleepers.values.map(\.continuation)
            state.sleepers = [:]
            return all
        }
        for continuation in woken { continuation.resume() }
        return woken.count
    }

    /// Waits (bounded by `seconds` of real time) until at least `count` callers are asleep.
    public func waitForSleepers(_ count: Int, seconds: Double = 10) async -> Bool {
        for _ in 0..<Int(seconds * 1000) {
            if sleeping >= count { return true }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return sleeping >= count
    }
}
