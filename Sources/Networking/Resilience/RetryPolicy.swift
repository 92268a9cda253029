import SystemSupport

/// When and how long to wait before retrying (DESIGN §4): the one jittered exponential `Backoff`; only
/// transport errors, timeouts, 5xx and 429 are retryable; the pause after an answer is the one
/// `RetryAfter` rule (its `Retry-After`, else the back-off, up to `maxRetryAfterSeconds`).
/// (`NetworkService` does not wait out a 429: it pauses its bucket for that pause and returns
/// the 429 at once.)
public struct RetryPolicy: Sendable {
    /// Total attempts, the first included. 1 disables retries.
    public var maxAttempts: Int
    /// The pause before each retry: doubling from the pause before the second attempt, jittered
    /// by ±50 % (so never less than half the doubled pause), never over its cap.
    public var backoff: Backoff
    /// The longest pause after an answer, whatever its `Retry-After` said.
    public var maxRetryAfterSeconds: Double
    /// A random fraction in `0..<1` used for jitter; injectable for tests.
    public var random: @Sendable () -> Double

    /// Creates a policy.
    /// - Parameters:
    ///   - baseDelaySeconds: the pause before the second attempt; doubled for each later one.
    ///   - maxDelaySeconds: the longest pause.
    public init(
        maxAttempts: Int = 3,
        baseDelaySeconds: Double = 0.5,
        maxDelaySeconds: Double = 8,
        maxRetryAfterSeconds: Double = 30,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.maxAttempts = max(1, maxAttempts)
        backoff = Backoff(initialSeconds: baseDelaySeconds, maxSeconds: maxDelaySeconds, jitterFraction: 0.5)
        self.maxRetryAfterSeconds = max(0, maxRetryAfterSeconds)
        self.random = random
    }

    /// Three attempts, 0.5 s doubling to at most 8 s, `Retry-After` up to 30 s.
    public static var standard: RetryPolicy { RetryPolicy() }

    /// A single attempt.
    public static var none: RetryPolicy { RetryPolicy(maxAttempts: 1) }

    /// Whether an HTTP status may succeed on retry: 429 and 5xx. Other 4xx never do.
    public static func isRetryable(status: Int) -> Bool {
        status == 429 || (500...599).contains(status)
    }

    /// The jittered pause after attempt `attempt` (1-based): between half and one and a half
    /// times the doubled pause, never over the cap.
    public func backoffSeconds(afterAttempt attempt: Int) -> Double {
        backoff.seconds(afterFailures: attempt, randomUnit: random())
    }

    /// The pause after `response` on attempt `attempt` (`RetryAfter.pause`).
    public func pause(after response: HTTPResponse, attempt: Int) -> Double {
        RetryAfter.pause(retryAfter: response.retryAfterSeconds, cap: maxRetryAfterSeconds) { backoffSeconds(afterAttempt: attempt) }
    }

    /// Seconds to wait before retrying after `response` on attempt `attempt`, or `nil` to stop.
    public func delayBeforeRetry(after response: HTTPResponse, attempt: Int) -> Double? {
        guard attempt < maxAttempts, Self.isRetryable(status: response.status) else { return nil }
        return pause(after: response, attempt: attempt)
    }

    /// Seconds to wait before retrying after `error` on attempt `attempt`, or `nil` to stop.
    public func delayBeforeRetry(after error: NetworkError, attempt: Int) -> Double? {
        guard attempt < maxAttempts, error.isRetryable else { return nil }
        return backoffSeconds(afterAttempt: attempt)
    }
}
