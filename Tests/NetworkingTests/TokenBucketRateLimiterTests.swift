import MoviesTestSupport
import Networking
import Testing

@Suite struct TokenBucketRateLimiterTests {
    @Test func burstGoesOutWithoutWaitingThenOneTokenPerInterval() async throws {
        let clock = TestClock()
        let limiter = TokenBucketRateLimiter(requestsPerSecond: 4, burst: 3, timeSource: clock.timeSource)
        for _ in 0..<3 { try await limiter.acquire() }
        #expect(clock.sleeps.isEmpty)
        try await limiter.acquire()
        #expect(clock.sleeps.count == 1)
        #expect(abs(clock.sleeps.reduce(0, +) - 0.25) < 1e-6)
    }

    @Test func tokensRefillWithTimeUpToBurst() async throws {
        let clock = TestClock()
        let limiter = TokenBucketRateLimiter(requestsPerSecond: 10, burst: 2, timeSource: clock.timeSource)
        try await limiter.acquire()
        try await limiter.acquire()
        #expect(await limiter.availableTokens() < 1)
        clock.advance(by: 60)
        #expect(await limiter.availableTokens() == 2)
    }

    @Test func defaultsToThirtyFivePerSecond() {
        let limiter = TokenBucketRateLimiter()
        #expect(limiter.requestsPerSecond == 35)
        #expect(limiter.burst == 35)
    }

    @Test func pauseMakesEveryCallerWaitUntilItEnds() async throws {
        let clock = TestClock()
        let limiter = TokenBucketRateLimiter(requestsPerSecond: 100, burst: 100, timeSource: clock.timeSource)
        let start = clock.seconds
        await limiter.pause(for: 5)
        try await limiter.acquire()
        #expect(clock.seconds - start >= 5)
        await limiter.pause(for: 2)
        await limiter.pause(for: 1)  // a shorter pause does not shorten the longer one
        let second = clock.seconds
        try await limiter.acquire()
        #expect(clock.seconds - second >= 2)
    }

    @Test func cancelledWaiterThrowsPromptly() async {
        let limiter = TokenBucketRateLimiter(requestsPerSecond: 0.001, burst: 1)
        try? await limiter.acquire()  // empties the bucket; the next token is ~1000 s away
        let waiter = Task { try await limiter.acquire() }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
    }
}
