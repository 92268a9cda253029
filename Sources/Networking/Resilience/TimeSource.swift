import SystemSupport

/// A monotonic clock and a sleep, injectable so tests can run backoff and rate limiting in virtual time.
public struct TimeSource: Sendable {
    /// Seconds on a monotonic clock (any origin).
    public var now: @Sendable () -> Double
    /// Suspends for `seconds`; throws `CancellationError` when the task is cancelled.
    public var sleep: @Sendable (Double) async throws -> Void

    /// Creates a time source from its two functions.
    public init(now: @escaping @Sendable () -> Double, sleep: @escaping @Sendable (Double) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// The real clock (`MonotonicClock`, in seconds) and `Task.sleep`.
    public static let system = TimeSource(
        now: { MonotonicClock.seconds() },
        sleep: { seconds in
            guard seconds > 0 else { return }
            try await Task.sleep(for: .seconds(seconds))
        }
    )
}
