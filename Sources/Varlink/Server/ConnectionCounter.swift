import Synchronization

/// The number of open connections and their buffered input over every event loop, written by
/// the loops and read from anywhere.
final class ConnectionCounter: Sendable {
    private let count = Atomic<Int>(0)
    private let input = Atomic<Int>(0)
    /// The connection (by descriptor: unique among open ones) whose message may grow past the
    /// input budget, -1 for none (see ``claimGrowthPastBudget(_:now:)``).
    private let grower = Atomic<Int32>(-1)
    /// When that connection was given its turn or last read more of its message (monotonic ns).
    private let growerProgress = Atomic<UInt64>(0)
    /// A turn to grow past the budget ends when its message has not grown for this long (1 s):
    /// a client that stops sending halfway does not hold every other large message back.
    static let stalledGrowthNanoseconds: UInt64 = 1_000_000_000

    var value: Int { count.load(ordering: .relaxed) }

    /// Input bytes buffered over all connections (unparsed calls), as the loop last counted them.
    var bufferedInputBytes: Int { input.load(ordering: .relaxed) }

    /// Counts `delta` more (or fewer) buffered input bytes, of one loop's connections.
    func addBufferedInput(_ delta: Int) {
        guard delta != 0 else { return }
        input.add(delta, ordering: .relaxed)
    }

    /// Whether connection `fd`, its message held back by a spent input budget, may grow anyway
    /// (`now`: the monotonic clock): true for one connection at a time, the first to ask, until
    /// it calls ``endGrowthPastBudget(_:)`` or its message stops growing for
    /// ``stalledGrowthNanoseconds`` (then the next to ask takes the turn). Messages that each
    /// wait for the budget could otherwise each wait for another one to end, and none would.
    func claimGrowthPastBudget(_ fd: Int32, now: UInt64) -> Bool {
        var (claimed, holder) = grower.compareExchange(expected: -1, desired: fd, ordering: .acquiringAndReleasing)
        if !claimed, holder != fd, now &- growerProgress.load(ordering: .acquiring) > Self.stalledGrowthNanoseconds {
            (claimed, holder) = grower.compareExchange(expected: holder, desired: fd, ordering: .acquiringAndReleasing)
        }
        if claimed { growerProgress.store(now, ordering: .releasing) }
        return claimed || holder == fd
    }

    /// Connection `fd`, growing past the budget, read more of its message at `now`.
    func grewPastBudget(_ fd: Int32, now: UInt64) {
        if grower.load(ordering: .acquiring) == fd { growerProgress.store(now, ordering: .releasing) }
    }

    /// Connection `fd`'s large message was read whole (or the connection is closing): another may grow.
    func endGrowthPastBudget(_ fd: Int32) {
        _ = grower.compareExchange(expected: fd, desired: -1, ordering: .acquiringAndReleasing)
    }

    func add(_ delta: Int) {
        count.add(delta, ordering: .relaxed)
    }
}
