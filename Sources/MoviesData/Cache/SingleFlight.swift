/// Runs at most one operation per key at a time: concurrent callers for one key share its result.
///
/// The in-flight entry is removed on every exit path (success, error, cancellation), so errors are
/// delivered to every waiter but never cached. A waiter that is cancelled returns at once with a
/// `CancellationError` without disturbing the others; when every waiter of a key is gone, the
/// shared work is cancelled too.
public actor SingleFlight<Key: Hashable & Sendable, Value: Sendable> {
    private struct Flight {
        let id: UInt64
        var task: Task<Void, Never>?
        var waiters: [UInt64: CheckedContinuation<Value, any Error>]
    }

    private var flights: [Key: Flight] = [:]
    private var lastID: UInt64 = 0

    /// Creates an empty group.
    public init() {}

    /// The number of keys with an operation in flight (for tests and statistics).
    public var inFlightCount: Int { flights.count }

    /// The number of callers waiting for `key`'s operation (0 when none is in flight).
    public func waiterCount(for key: Key) -> Int { flights[key]?.waiters.count ?? 0 }

    /// Runs `operation` for `key`, or joins the one already running for it, and returns its result.
    /// - Throws: the operation's error, or `CancellationError` when the calling task is cancelled.
    public func run(_ key: Key, operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let waiterID = makeID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                join(key, waiterID: waiterID, continuation: continuation, operation: operation)
            }
        } onCancel: {
            Task { await self.leave(key, waiterID: waiterID) }
        }
    }

    private func makeID() -> UInt64 {
        lastID &+= 1
        return lastID
    }

    private func join(
        _ key: Key, waiterID: UInt64, continuation: CheckedContinuation<Value, any Error>,
        operation: @escaping @Sendable () async throws -> Value
    ) {
        if Task.isCancelled {
            continuation.resume(throwing: CancellationError())
            return
        }
        if var flight = flights[key] {
            flight.waiters[waiterID] = continuation
            flights[key] = flight
            return
        }
        let flightID = makeID()
        flights[key] = Flight(id: flightID, task: nil, waiters: [waiterID: continuation])
        let task = Task {
            let result: Result<Value, any Error>
            do {
                result = .success(try await operation())
            } catch {
                result = .failure(error)
            }
            self.finish(key, flightID: flightID, result: result)
        }
        flights[key]?.task = task
    }

    /// Delivers the result to every remaining waiter and clears the entry.
    private func finish(_ key: Key, flightID: UInt64, result: Result<Value, any Error>) {
        guard let flight = flights[key], flight.id == flightID else { return }
        flights[key] = nil
        for continuation in flight.waiters.values {
            continuation.resume(with: result)
        }
    }

    /// Resumes one cancelled waiter; cancels the shared work when nobody waits any more.
    private func leave(_ key: Key, waiterID: UInt64) {
        guard var flight = flights[key], let continuation = flight.waiters.removeValue(forKey: waiterID) else { return }
        continuation.resume(throwing: CancellationError())
        if flight.waiters.isEmpty {
            flights[key] = nil
            flight.task?.cancel()
        } else {
            flights[key] = flight
        }
    }
}
