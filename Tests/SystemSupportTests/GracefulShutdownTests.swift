@testable import SystemSupport
import Synchronization
import Testing

/// A service's graceful shutdown: requested once, its handlers told once (at once when registered
/// late), its waiters woken.
@Suite(.timeLimit(.minutes(1))) struct GracefulShutdownTests {
    @Test func aRequestCallsEveryHandlerOnceAndLateHandlersAtOnce() {
        let shutdown = GracefulShutdown()
        let calls = Mutex<[String]>([])
        shutdown.onRequest { calls.withLock { $0.append("early") } }
        #expect(!shutdown.isRequested)
        #expect(calls.withLock { $0 }.isEmpty)
        shutdown.request()
        shutdown.request()
        #expect(shutdown.isRequested)
        shutdown.onRequest { calls.withLock { $0.append("late") } }
        #expect(calls.withLock { $0 } == ["early", "late"])
    }

    @Test func waitReturnsAtTheRequestAndAtOnceAfterIt() async {
        let shutdown = GracefulShutdown()
        let waiting = Task {
            await shutdown.wait()
            return shutdown.isRequested && !Task.isCancelled
        }
        shutdown.request()
        #expect(await waiting.value, "woken by the request, not by cancellation")
        await shutdown.wait()  // already requested: returns (the time limit would fail the test)
    }
}
