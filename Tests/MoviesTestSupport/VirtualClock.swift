import Networking
import Synchronization

/// A clock for tests: `sleep` advances virtual time at once and records how long was asked for,
/// so backoff and rate limiting run without real waiting.
public final class VirtualClock: Sendable {
    private struct State {
        var now: Double = 1000
        var sleeps: [Double] = []
    }

    private let state = Mutex(State())

    /// Creates a clock at an arbitrary origin.
    public init() {}

    /// The current virtual time, in seconds.
    public var now: Double { state.withLock { $0.now } }

    /// Every sleep requested, in order.
    public var sleeps: [Double] { state.withLock { $0.sleeps } }

    /// Moves virtual time forward.
    public func advance(by seconds: Double) {
        state.withLock { $0.now += max(0, seconds) }
    }

    /// A `TimeSource` reading and advancing this clock.
    public var timeSource: TimeSource {
        TimeSource(
            now: { self.now },
            sleep: { seconds in
                try Task.checkCancellation()
                self.state.withLock { state in
                    state.sleeps.append(seconds)
                    state.now += max(0, seconds)
                }
                await Task.yield()
            }
        )
    }
}
