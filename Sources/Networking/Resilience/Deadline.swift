import SystemSupport

/// Runs an operation against a deadline (on the shared `DeadlineTimer`) without waiting for the
/// loser of the race.
///
/// The operation runs in its own task; when the deadline passes first, the caller gets
/// `NetworkError.timedOut` at once and the operation's task is cancelled (and not awaited, so an
/// operation stuck in a transport that ignores cancellation cannot hang the caller).
public enum Deadline {
    /// The result of `operation`, or `NetworkError.timedOut` after `seconds`, or
    /// `NetworkError.cancelled` when the calling task is cancelled first.
    public static func run<Value: Sendable>(
        seconds: Double,
        operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let gate = ResumeOnce<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                gate.install(continuation)
                let work = Task {
                    do {
                        gate.resume(.success(try await operation()))
                    } catch {
                        gate.resume(.failure(error))
                    }
                }
                let timer = DeadlineTimer.shared.schedule(after: .seconds(max(0, seconds))) {
                    gate.resume(.failure(NetworkError.timedOut))
                }
                gate.onResolve {
                    work.cancel()
                    DeadlineTimer.shared.cancel(timer)
                }
            }
        } onCancel: {
            gate.resume(.failure(NetworkError.cancelled))
        }
    }
}
