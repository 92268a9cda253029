import MoviesTestSupport
import Networking
import Synchronization
import Testing

/// Issue 31: the rate limiter hands its tokens out fairly between local users: a user's call
/// before background work, round-robin between the uids that wait, so one user's long drain or
/// prefetch delays another's search by one request slot at the most.
@Suite struct FairRateLimiterTests {
    /// A limiter of one request a second whose time moves only when the test says.
    final class World: Sendable {
        final class Clock: Sendable {
            let seconds = Mutex(0.0)
        }

        let clock = Clock()
        let sleeper = ManualSleeper()
        let granted = Mutex<[String]>([])
        let limiter: TokenBucketRateLimiter

        init() {
            let (clock, sleeper) = (clock, sleeper)
            limiter = TokenBucketRateLimiter(
                requestsPerSecond: 1, burst: 1,
                timeSource: TimeSource(now: { clock.seconds.withLock { $0 } }, sleep: { try await sleeper.sleep($0) }))
        }

        /// Starts a request in `lane`, recorded as `label` when it gets its token.
        func request(_ label: String, _ lane: RateLimitLane) -> Task<Void, any Error> {
            Task {
                try await self.limiter.acquire(in: lane)
                self.granted.withLock { $0.append(label) }
            }
        }

        /// Waits (bounded) until `count` requests wait for a token.
        func waitUntilWaiting(_ count: Int) async -> Bool {
            for _ in 0..<10_000 {
                if await limiter.waitingCount() == count { return true }
                await Task.yield()
            }
            return false
        }

        /// Lets the next token come: one second passes for the bucket's wake-up; returns the
        /// request that got it.
        func nextSlot() async -> String? {
            let before = granted.withLock { $0.count }
            guard await sleeper.waitForSleepers(1) else { return nil }
            clock.seconds.withLock { $0 += 1 }
            sleeper.elapse()
            for _ in 0..<10_000 {
                if let label = granted.withLock({ $0.count > before ? $0[before] : nil }) { return label }
                await Task.yield()
            }
            return nil
        }
    }

    static func background(_ uid: UInt32) -> RateLimitLane { RateLimitLane(uid: uid, priority: .background) }

    @Test("a search waits one slot however many background requests of another user wait")
    func interactiveGoesFirst() async throws {
        let world = World()
        try await world.limiter.acquire()  // the bucket is empty now
        // One at a time, so that the queue's order is the order asked (tasks start in any order).
        var tasks: [Task<Void, any Error>] = []
        for index in 0..<5 {
            tasks.append(world.request("drain \(index)", Self.background(1001)))
            #expect(await world.waitUntilWaiting(index + 1))
        }
        tasks.append(world.request("search", RateLimitLane(uid: 1002, priority: .interactive)))
        #expect(await world.waitUntilWaiting(6))
        #expect(await world.nextSlot() == "search")
        #expect(await world.nextSlot() == "drain 0")
        for task in tasks { task.cancel() }
    }

    @Test("background requests of several users take turns, each user's in order")
    func roundRobinBetweenUsers() async throws {
        let world = World()
        try await world.limiter.acquire()
        // One at a time, so that each user's queue is in the order asked (tasks start in any order).
        var tasks: [Task<Void, any Error>] = []
        for (index, (name, uid)) in [("alice 0", 1001), ("alice 1", 1001), ("alice 2", 1001), ("bob 0", 1002), ("bob 1", 1002)].enumerated() {
            tasks.append(world.request(name, Self.background(UInt32(uid))))
            #expect(await world.waitUntilWaiting(index + 1))
        }
        var order: [String] = []
        for _ in 0..<5 { order.append(await world.nextSlot() ?? "none") }
        #expect(order == ["alice 0", "bob 0", "alice 1", "bob 1", "alice 2"])
        for task in tasks { task.cancel() }
    }

    @Test("a cancelled waiter leaves the queue, and its turn goes to the next")
    func cancelledWaiterLeaves() async throws {
        let world = World()
        try await world.limiter.acquire()
        let first = world.request("first", Self.background(1001))
        #expect(await world.waitUntilWaiting(1))
        let second = world.request("second", Self.background(1002))
        #expect(await world.waitUntilWaiting(2))
        first.cancel()
        await #expect(throws: CancellationError.self) { try await first.value }
        #expect(await world.waitUntilWaiting(1))
        #expect(await world.nextSlot() == "second")
        _ = try await second.value
    }
}
