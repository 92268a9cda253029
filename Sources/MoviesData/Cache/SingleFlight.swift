/// Runs at most one operation per key at a time: concurrent callers for one key share its result.
///
/// The in-flight entry is removed on every exit path (success, error, cancellation), so errors are
/// delivered to every waiter but never cached. A waiter that is cancelled returns at once with a
/// `CancellationError` without disturbing the others; when every waiter of a key is gone, the
/// shared work is cancelled too.
///
/// A waiter may also bring its own patience: an async function that returns an error once the
/// waiter has waited long enough (the answer deadline). Then that waiter alone gets the error, at
/// once, and the shared work goes on in the background, for the other waiters and for whatever it
/// stores, even when nobody waits for it any more. Every waiter is bounded this way, the one that
/// started the work and the ones that joined it later alike. A flight that a waiter gave up on is
/// known to be slow: later callers start a new one instead of joining it.
public actor SingleFlight<Key: Hashable & Sendable, Value: Sendable> {
    /// Waits until a waiter has waited long enough and returns the error to give it, or `nil` when
    /// it is cancelled first (the waiter got its result).
    public typealias Patience = @Sendable () async -> (any Error)?

    private struct Waiter {
        let continuation: CheckedContinuation<Value, any Error>
        var patience: Task<Void, Never>?
    }

    private struct Flight {
        let key: Key
        var task: Task<Void, Never>?
        var waiters: [UInt64: Waiter] = [:]
        /// Whether a waiter ran out of patience: the work is then kept going for the cache, is not
        /// cancelled when the last waiter leaves, and is not joined any more.
        var detached = false
    }

    /// Every flight still running, by id (a detached one stays until its work ends).
    private var flights: [UInt64: Flight] = [:]
    /// The flight a new caller of each key joins.
    private var joinable: [Key: UInt64] = [:]
    private var lastID: UInt64 = 0

    /// Creates an empty group.
    public init() {}

    /// The number of flights whose work is still running (for tests and statistics).
    public var inFlightCount: Int { flights.count }

    /// The number of callers waiting for `key`'s joinable operation (0 when none is in flight).
    public func waiterCount(for key: Key) -> Int { joinable[key].flatMap { flights[$0]?.waiters.count } ?? 0 }

    /// Runs `operation` for `key`, or joins the one already running for it, and returns its result.
    /// - Parameter patience: when it returns an error before the result is there, this caller gets
    ///   that error and the operation goes on without it; `nil` waits for the result.
    /// - Throws: the operation's error, the patience's error, or `CancellationError` when the
    ///   calling task is cancelled.
    public func run(
        _ key: Key, patience: Patience? = nil, operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let waiterID = makeID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                join(key, waiterID: waiterID, continuation: continuation, patience: patience, operation: operation)
            }
        } onCancel: {
            Task { await self.leave(waiterID: waiterID, with: CancellationError()) }
        }
    }

    private func makeID() -> UInt64 {
        lastID &+= 1
        return lastID
    }

    private func join(
        _ key: Key, waiterID: UInt64, continuation: CheckedContinuation<Value, any Error>,
        patience: Patience?, operation: @escaping @Sendable () async throws -> Value
    ) {
        if Task.isCancelled {
            continuation.resume(throwing: CancellationError())
            return
        }
        var waiter = Waiter(continuation: continuation)
        if let patience {
            waiter.patience = Task {
                guard let error = await patience() else { return }
                self.leave(waiterID: waiterID, with: error)
            }
        }
        if let flightID = joinable[key], flights[flightID] != nil {
            flights[flightID]?.waiters[waiterID] = waiter
            return
        }
        let flightID = makeID()
        joinable[key] = flightID
        flights[flightID] = Flight(key: key, waiters: [waiterID: waiter])
        let task = Task {
            let result: Result<Value, any Error>
            do {
                result = .success(try await operation())
            } catch {
                result = .failure(error)
            }
            self.finish(flightID, result: result)
        }
        flights[flightID]?.task = task
    }

    /// Delivers the result to every remaining waiter and clears the entry.
    private func finish(_ flightID: UInt64, result: Result<Value, any Error>) {
        guard let flight = flights.removeValue(forKey: flightID) else { return }
        if joinable[flight.key] == flightID { joinable[flight.key] = nil }
        for waiter in flight.waiters.values {
            waiter.patience?.cancel()
            waiter.continuation.resume(with: result)
        }
    }

    /// Resumes one waiter with `error` (it was cancelled, or ran out of patience). The shared work
    /// is cancelled when nobody waits any more, unless a waiter ran out of patience: then it goes
    /// on in the background, its entry stays until it ends, and the key's next caller starts anew.
    private func leave(waiterID: UInt64, with error: any Error) {
        guard let flightID = flights.first(where: { $0.value.waiters[waiterID] != nil })?.key,
              var flight = flights[flightID],
              let waiter = flight.waiters.removeValue(forKey: waiterID) else { return }
        waiter.patience?.cancel()
        waiter.continuation.resume(throwing: error)
        if !(error is CancellationError), !flight.detached {
            flight.detached = true
            if joinable[flight.key] == flightID { joinable[flight.key] = nil }
        }
        if flight.waiters.isEmpty, !flight.detached {
            flights[flightID] = nil
            if joinable[flight.key] == flightID { joinable[flight.key] = nil }
            flight.task?.cancel()
        } else {
            flights[flightID] = flight
        }
    }
}
