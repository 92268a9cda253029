import Synchronization
import SystemSupport
import Testing

/// The shared deadline clock: fires what is due, once, and nothing that was cancelled.
@Suite struct DeadlineTimerTests {
    final class Fired: Sendable {
        let names = Mutex<[String]>([])
    }

    @Test func firesDueDeadlinesInOrderOnceAndNeverACancelledOne() async {
        let timer = DeadlineTimer(resolution: .milliseconds(10))
        let fired = Fired()
        let cancelled = timer.schedule(after: .zero) { fired.names.withLock { $0.append("cancelled") } }
        timer.cancel(cancelled)
        _ = timer.schedule(after: .zero) { fired.names.withLock { $0.append("first") } }
        // Due after the others: they fire first, even when a busy machine makes it one late tick.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            _ = timer.schedule(after: .milliseconds(100)) {
                fired.names.withLock { $0.append("last") }
                done.resume()
            }
        }
        #expect(fired.names.withLock { $0 } == ["first", "last"])
    }

    /// A delay past the clock's range (about 584 years) is never due: it once wrapped around and
    /// fired at the next tick, so a configured `DeadlineSec=100000w` failed every fetch at once.
    @Test func aDelayBeyondTheClocksRangeNeverFires() async {
        let timer = DeadlineTimer(resolution: .milliseconds(5))
        let fired = Fired()
        _ = timer.schedule(after: .seconds(100_000 * 7 * 86_400)) { fired.names.withLock { $0.append("far") } }
        _ = timer.schedule(after: .seconds(Int64.max)) { fired.names.withLock { $0.append("farthest") } }
        // Two ticks later: anything due by then has fired.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            _ = timer.schedule(after: .milliseconds(10)) { done.resume() }
        }
        #expect(fired.names.withLock { $0 }.isEmpty)
    }

    @Test func aTickerStartsAgainAfterItStoppedForLackOfWork() async {
        let timer = DeadlineTimer(resolution: .milliseconds(5))
        for round in 0..<3 {
            let value = await withCheckedContinuation { (done: CheckedContinuation<Int, Never>) in
                _ = timer.schedule(after: .milliseconds(1)) { done.resume(returning: round) }
            }
            #expect(value == round)
        }
    }
}

/// The one monotonic clock never goes back.
@Suite struct MonotonicClockTests {
    @Test func neverGoesBackAndConvertsSeconds() {
        var last = MonotonicClock.now()
        for _ in 0..<1000 {
            let now = MonotonicClock.now()
            #expect(now >= last)
            last = now
        }
        #expect(MonotonicClock.nanoseconds(seconds: 2) == 2_000_000_000)
        #expect(MonotonicClock.nanoseconds(.milliseconds(1500)) == 1_500_000_000)
        #expect(MonotonicClock.nanoseconds(.seconds(-3)) == 0)
        let seconds = MonotonicClock.seconds()
        #expect(abs(seconds - Double(MonotonicClock.now()) / 1e9) < 1, "seconds and nanoseconds read the same clock")
        #expect(MonotonicClock.timeout(seconds: 0) == MonotonicClock.nanoseconds(seconds: 100 * 365 * 86_400))
    }
}
