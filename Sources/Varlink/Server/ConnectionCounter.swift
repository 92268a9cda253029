import Synchronization

/// The number of open connections and their buffered input over every event loop, written by
/// the loops and read from anywhere.
final class ConnectionCounter: Sendable {
    private let count = Atomic<Int>(0)
    private let input = Atomic<Int>(0)
    /// The connection (by descriptor: unique among open ones) whose message may grow past the
    /// input budget, -1 for none (see ``claimGrowthPastBudget(_:)``).
    private let grower = Atomic<Int32>(-1)

    var value: Int { count.load(ordering: .relaxed) }

    /// Input bytes buffered over all connections (unparsed calls), as the loop last counted them.
    var bufferedInputBytes: Int { input.load(ordering: .relaxed) }

    /// Counts `delta` more (or fewer) buffered input bytes, of one loop's connections.
    func addBufferedInput(_ delta: Int) {
        guard delta != 0 else { return }
        input.add(delta, ordering: .relaxed)
    }

    /// Whether connection `fd`, its message held back by a spent input budget, may grow anyway:
    /// true for one connection at a time, the first to ask, until it calls
    /// ``endGrowthPastBudget(_:)``. Messages that each wait for the budget could otherwise each
    /// wait for another one to end, and none would.
    func claimGrowthPastBudget(_ fd: Int32) -> Bool {
        let (claimed, holder) = grower.compareExchange(expected: -1, desired: fd, ordering: .acquiringAndReleasing)
        return claimed || holder == fd
    }

    /// Connection `fd`'s large message was read (or the connection closed): another may grow.
    func endGrowthPastBudget(_ fd: Int32) {
        _ = grower.compareExchange(expected: fd, desired: -1, ordering: .acquiringAndReleasing)
    }

    func add(_ delta: Int) {
        count.add(delta, ordering: .relaxed)
    }
}
