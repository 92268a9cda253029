import Synchronization

/// The number of open connections and their buffered input over every event loop, written by
/// the loops and read from anywhere.
final class ConnectionCounter: Sendable {
    private let count = Atomic<Int>(0)
    private let input = Atomic<Int>(0)
    /// Which connection (by descriptor: unique among open ones) may grow its message past the
    /// input budget, and when it was given the turn or last made progress, in one word so that
    /// the two change together: 0 for none; else the descriptor + 1 in the high 32 bits and the
    /// monotonic clock in milliseconds, modulo 2^32, in the low 32 (compared as a difference, so
    /// its wrapping every 49 days does not matter; see ``claimGrowthPastBudget(_:now:)``).
    private let growth = Atomic<UInt64>(0)
    private static let timeBits: UInt64 = 32
    /// A turn to grow past the budget ends when its message has made no progress (grown by
    /// `VarlinkEventLoop.turnProgressBytes`) for this long (1 s): a client that stops sending
    /// halfway, or trickles, does not hold every other large message back.
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
    /// it calls ``endGrowthPastBudget(_:)`` or its message makes no progress for
    /// ``stalledGrowthNanoseconds`` (then the next to ask takes the turn). Messages that each
    /// wait for the budget could otherwise each wait for another one to end, and none would.
    func claimGrowthPastBudget(_ fd: Int32, now: UInt64) -> Bool {
        let mine = Self.packed(fd, now)
        var current = growth.load(ordering: .acquiring)
        while true {
            if current != 0 {
                if current >> Self.timeBits == mine >> Self.timeBits { return true }
                // Taken from its holder only when it stalled: a time from another loop's later
                // clock reading (a negative difference) is no stall.
                let elapsed = Int32(bitPattern: UInt32(truncatingIfNeeded: mine) &- UInt32(truncatingIfNeeded: current))
                guard elapsed > 0, UInt64(elapsed) * 1_000_000 > Self.stalledGrowthNanoseconds else { return false }
            }
            let (exchanged, original) = growth.compareExchange(expected: current, desired: mine, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
    }

    /// Connection `fd`, growing past the budget, read more of its message at `now`.
    func grewPastBudget(_ fd: Int32, now: UInt64) {
        let mine = Self.packed(fd, now)
        var current = growth.load(ordering: .acquiring)
        while current >> Self.timeBits == mine >> Self.timeBits {
            let (exchanged, original) = growth.compareExchange(expected: current, desired: mine, ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = original
        }
    }

    /// Connection `fd`'s large message was read whole (or the connection is closing): another may grow.
    func endGrowthPastBudget(_ fd: Int32) {
        let holder = Self.packed(fd, 0) >> Self.timeBits
        var current = growth.load(ordering: .acquiring)
        while current >> Self.timeBits == holder {
            let (exchanged, original) = growth.compareExchange(expected: current, desired: 0, ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = original
        }
    }

    /// `fd`'s turn at `now`, as ``growth`` holds it.
    private static func packed(_ fd: Int32, _ now: UInt64) -> UInt64 {
        (UInt64(UInt32(bitPattern: fd)) + 1) << timeBits | (now / 1_000_000) & 0xFFFF_FFFF
    }

    func add(_ delta: Int) {
        count.add(delta, ordering: .relaxed)
    }
}
