/// A token bucket shared by every request made with one credential (DESIGN §4), handing its tokens
/// out fairly between local users (`RateLimitLane`).
///
/// Tokens refill at `requestsPerSecond` up to `burst`; `acquire()` takes one at once when nobody
/// waits, else waits its lane's turn (`FairWaitQueue`: interactive before background, round-robin
/// between uids). `pause(for:)` (after a 429) makes every caller wait until the pause ends.
public actor TokenBucketRateLimiter {
    /// Tokens added per second.
    public nonisolated let requestsPerSecond: Double
    /// The bucket's capacity: how many requests may go out at once after a quiet period.
    public nonisolated let burst: Double

    private let timeSource: TimeSource
    private var tokens: Double
    private var lastRefill: Double
    private var pausedUntil: Double
    private var waiting = FairWaitQueue<CheckedContinuation<Void, any Error>>()
    private var lastWaiterID: UInt64 = 0
    /// A wake-up is scheduled for when the next token is due (or the pause ends).
    private var wakeScheduled = false

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

    /// Takes one token in the lane of the calling task (`RateLimitLane.current`).
    public func acquire() async throws {
        try await acquire(in: RateLimitLane.current)
    }

    /// Takes one token in `lane`: at once when one is there and nobody waits, else at the lane's
    /// turn. Throws `CancellationError` if the calling task is cancelled while waiting (no token is
    /// taken then).
    public func acquire(in lane: RateLimitLane) async throws {
        try Task.checkCancellation()
        let now = timeSource.now()
        refill(at: now)
        if waiting.isEmpty, now >= pausedUntil, tokens >= 1 - 1e-9 {
            tokens = max(0, tokens - 1)
            return
        }
        lastWaiterID += 1
        let id = lastWaiterID
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                waiting.append(continuation, id: id, lane: lane)
                grant()
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
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

    /// How many requests wait for a token (for tests and benchmarks).
    public func waitingCount() -> Int { waiting.count }

    /// Hands the tokens there are to the waiters whose turn it is; schedules a wake-up for the
    /// next token while some still wait.
    private func grant() {
        let now = timeSource.now()
        refill(at: now)
        while now >= pausedUntil, tokens >= 1 - 1e-9, let waiter = waiting.next() {
            tokens = max(0, tokens - 1)
            waiter.resume()
        }
        guard !waiting.isEmpty, !wakeScheduled else { return }
        wakeScheduled = true
        let delay = now < pausedUntil ? pausedUntil - now : (1 - tokens) / requestsPerSecond
        let sleep = timeSource.sleep
        // One wake-up at a time, owned by the bucket: it ends when it has woken the bucket.
        Task {
            try? await sleep(delay)
            await self.woke()
        }
    }

    private func woke() {
        wakeScheduled = false
        grant()
    }

    private func cancelWaiter(_ id: UInt64) {
        waiting.remove(id: id)?.resume(throwing: CancellationError())
    }

    private func refill(at now: Double) {
        guard now > lastRefill else { return }
        tokens = min(burst, tokens + (now - lastRefill) * requestsPerSecond)
        lastRefill = now
    }
}
