@testable import MoviesData
import Testing

@Suite struct RefreshWakeSignalTests {
    @Test func aSignalBeforeTheWaitIsKept() async {
        let signal = RefreshWakeSignal()
        signal.signal()
        await signal.wait()  // returns at once; hangs (and times out) if the signal were lost
    }

    @Test func aSignalWakesTheWaiter() async {
        let signal = RefreshWakeSignal()
        async let woken: Void = signal.wait()
        try? await Task.sleep(for: .milliseconds(5))
        signal.signal()
        await woken
    }

    @Test func cancellationEndsTheWait() async {
        let signal = RefreshWakeSignal()
        let waiting = Task { await signal.wait() }
        waiting.cancel()
        await waiting.value
    }
}
