/// A token bucket shared by every request made with one credential (DESIGN §4).
///
/// Tokens refill at `requestsPerSecond` up to `burst`; `acquire()` takes one, waiting when the bucket
/// is empty. `pause(for:)` (after a 429) makes every caller wait until the pause ends.
public actor TokenBucketRateLimiter {
    /// Tokens added per second.
    public nonisolated let requestsPerSecond: Double
    /// The bucket's capacity: how many requests may go out at once after a quiet period.
    public nonisolated let burst: Double

    private let timeSource: TimeSource
    private var tokens: Double
    private var lastRefill: Double
    private var pausedUntil: Double

    /// Creates a full bucket. `burst` defaults to one second's worth of requests.
    public init(requestsPerSecond: Double = 35, burst: Int? = nil, timeSource: TimeSource = .system) {
        let rate = requestsPerSecond > 0 ? requestsPerSecond : 1
        self.requestsPerSecond = rate
        self.burst = Double(max(1, burst ?? Int(rate.rounded(.up))))
        self.timeSource = timeSource
        self.tokens = self.burst
        let now = timeSource.now()
        self.lastRefill = now
        self.pausedUntil = now
    }

    /// Takes one token, waiting for a refill or the end of a pause. Throws `CancellationError`
    /// if the calling task is cancelled while waiting (no token is taken then).
    public func acquire() async throws {
        while true {
            try Task.checkCancellation()
            let now = timeSource.now()
            refill(at: now)
            if now < pausedUntil {
                try await timeSource.sleep(pausedUntil - now)
                continue
            }
            if tokens >= 1 - 1e-9 {
                tokens = max(0, tokens - 1)
                return
            }
            try await timeSource.sleep((1 - tokens) / requestsPerSecond)
        }
    }

    /// Stops handing out tokens for `seconds` (from now), for every caller; a longer pause already
    /// in force is kept. The bucket is emptied so traffic resumes gradually.
    public func pause(for seconds: Double) {
        let now = timeSource.now()
        refill(at: now)
        pausedUntil = max(pausedUntil, now + max(0, seconds))
        tokens = 0
        lastRefill = pausedUntil
    }

    /// Tokens available now (for status and tests).
    public func availableTokens() -> Double {
        refill(at: timeSource.now())
        return tokens
    }

    private func refill(at now: Double) {
        guard now > lastRefill else { return }
        tokens = min(burst, tokens + (now - lastRefill) * requestsPerSecond)
        lastRefill = now
    }
}
