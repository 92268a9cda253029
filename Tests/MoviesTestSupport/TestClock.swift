import FoundationEssentials
import Networking
import Synchronization

/// The one clock of the tests: a wall clock (`date`, injected as `now`) and a monotonic one
/// (`seconds`, injected through `timeSource`) that the test moves, and a `sleep` that moves both at
/// once and records how long was asked for, so back-off, rate limiting and timeouts run without
/// real waiting.
///
/// `advance(by:)` is time passing (both clocks move); `set(_:)` is the wall clock jumping (the
/// monotonic one does not move, as on a real system).
public final class TestClock: Sendable {
    private struct State {
        var date: Date
        var seconds: Double = 1000
        var sleeps: [Double] = []
    }

    private let state: Mutex<State>

    /// Creates a clock at `start` (default 2026-01-01T00:00:00Z).
    public init(_ start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        state = Mutex(State(date: start))
    }

    /// The current wall-clock instant.
    public var date: Date { state.withLock { $0.date } }

    /// A closure to inject as the code under test's wall clock.
    public var now: @Sendable () -> Date { { self.date } }

    /// The monotonic clock, in seconds from an arbitrary origin.
    public var seconds: Double { state.withLock { $0.seconds } }

    /// Every sleep requested through ``sleep`` or ``timeSource``, in order.
    public var sleeps: [Double] { state.withLock { $0.sleeps } }

    /// Moves both clocks forward by `seconds` (a negative amount is none).
    public func advance(by seconds: Double) {
        state.withLock { state in
            let elapsed = max(0, seconds)
            state.date = state.date.addingTimeInterval(elapsed)
            state.seconds += elapsed
        }
    }

    /// Sets the wall clock to `date`; the monotonic clock does not move.
    public func set(_ date: Date) {
        state.withLock { $0.date = date }
    }

    /// A sleep to inject: records the request, advances both clocks at once, then yields; throws
    /// `CancellationError` when the task is cancelled.
    public var sleep: @Sendable (Double) async throws -> Void {
        { seconds in
            try Task.checkCancellation()
            self.state.withLock { state in state.sleeps.append(seconds) }
            self.advance(by: seconds)
            await Task.yield()
        }
    }

    /// A `TimeSource` reading the monotonic clock and sleeping with ``sleep``.
    public var timeSource: TimeSource {
        TimeSource(now: { self.seconds }, sleep: sleep)
    }
}
