@testable import SystemSupport
import Testing

/// Every wait here ends: by the signal, or by cancellation (the suite's time limit cancels a test
/// that hangs, and a cancelled wait returns). Each test asserts how its wait ended.
@Suite(.timeLimit(.minutes(1))) struct WakeSignalTests {
    /// Waits on `signal` in a task of its own; the task's value is whether the wait ended by a
    /// signal (false: by cancellation).
    static func waiter(_ signal: WakeSignal) -> Task<Bool, Never> {
        Task {
            await signal.wait()
            return !Task.isCancelled
        }
    }

    @Test func aSignalBeforeTheWaitIsKept() async {
        let signal = WakeSignal()
        signal.signal()
        let woken = Self.waiter(signal)
        // Without a kept signal this would wait until the time limit cancels it, and fail.
        #expect(await woken.value, "the pending signal ended the wait")
    }

    @Test func aSignalWakesAParkedWaiterAndIsUsedUp() async {
        let (parked, parkedContinuation) = AsyncStream.makeStream(of: Void.self)
        let signal = WakeSignal(onParked: { parkedContinuation.yield() })
        let first = Self.waiter(signal)
        var parkings = parked.makeAsyncIterator()
        _ = await parkings.next()  // the waiter is parked: the signal must wake it, not be kept
        signal.signal()
        #expect(await first.value, "the signal woke the parked waiter")

        // The signal was consumed: a second waiter parks, and only cancellation ends it.
        let second = Self.waiter(signal)
        _ = await parkings.next()
        second.cancel()
        #expect(await second.value == false, "no signal was left over for the second waiter")
    }

    @Test func cancellationEndsTheWaitWithoutASignal() async {
        let (parked, parkedContinuation) = AsyncStream.makeStream(of: Void.self)
        let signal = WakeSignal(onParked: { parkedContinuation.yield() })
        let waiting = Self.waiter(signal)
        var parkings = parked.makeAsyncIterator()
        _ = await parkings.next()
        waiting.cancel()
        #expect(await waiting.value == false, "the wait ended by cancellation")

        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await signal.wait()
            return Task.isCancelled
        }
        #expect(await early.value, "a wait started cancelled returns at once")
    }

    @Test func aSignalWakesEveryParkedWaiter() async {
        let (parked, parkedContinuation) = AsyncStream.makeStream(of: Void.self)
        let signal = WakeSignal(onParked: { parkedContinuation.yield() })
        let waiters = (0..<3).map { _ in Self.waiter(signal) }
        var parkings = parked.makeAsyncIterator()
        for _ in waiters { _ = await parkings.next() }
        signal.signal()
        for waiter in waiters {
            #expect(await waiter.value, "one signal woke all three parked waiters")
        }
    }

    @Test func aBoundedWaitEndsWhenItsSleepDoes() async {
        let signal = WakeSignal()
        let (asked, askedContinuation) = AsyncStream.makeStream(of: Double.self)
        // A sleep that returns at once: the wait ends by it, without a signal.
        await signal.wait(atMostSeconds: 7, sleep: { askedContinuation.yield($0) })
        askedContinuation.finish()
        var seconds: [Double] = []
        for await value in asked { seconds.append(value) }
        #expect(seconds == [7])

        // A signal ends a bounded wait whose sleep never returns by itself.
        signal.signal()
        await signal.wait(atMostSeconds: 3_600, sleep: { try await Task.sleep(for: .seconds($0)) })
    }
}
