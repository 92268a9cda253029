import FoundationEssentials
import Synchronization

/// A settable clock for tests: `now` is what the code under test calls; `advance(by:)` moves it.
public final class TestClock: Sendable {
    private let current: Mutex<Date>

    /// Creates a clock at `start` (default 2026-01-01T00:00:00Z).
    public init(_ start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        current = Mutex(start)
    }

    /// The current instant.
    public var date: Date { current.withLock { $0 } }

    /// A closure to inject as the code under test's clock.
    public var now: @Sendable () -> Date { { self.date } }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: Double) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// Sets the clock to `date`.
    public func set(_ date: Date) {
        current.withLock { $0 = date }
    }
}
