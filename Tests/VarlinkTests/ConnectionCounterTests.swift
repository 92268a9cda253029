import Testing
@testable import Varlink

/// The turn to grow a message past the spent input budget (`ConnectionCounter`): one holder at a
/// time, taken from it only after a second without progress by its own clock's account.
@Suite struct ConnectionCounterTests {
    private static let second: UInt64 = 1_000_000_000

    @Test func theTurnIsOnesUntilItStallsForASecond() {
        let counter = ConnectionCounter()
        let start = 100 * Self.second
        #expect(counter.claimGrowthPastBudget(5, now: start))
        #expect(counter.claimGrowthPastBudget(5, now: start + Self.second / 2), "its holder keeps it")
        #expect(!counter.claimGrowthPastBudget(6, now: start + Self.second / 2))
        counter.grewPastBudget(5, now: start + Self.second)
        #expect(!counter.claimGrowthPastBudget(6, now: start + Self.second * 19 / 10), "progress restarted the second")
        #expect(counter.claimGrowthPastBudget(6, now: start + Self.second * 21 / 10), "stalled: taken")
        #expect(!counter.claimGrowthPastBudget(5, now: start + Self.second * 22 / 10))
        counter.grewPastBudget(5, now: start + Self.second * 23 / 10)
        counter.endGrowthPastBudget(5)
        #expect(!counter.claimGrowthPastBudget(7, now: start + Self.second * 23 / 10), "neither ends another's turn")
        counter.endGrowthPastBudget(6)
        #expect(counter.claimGrowthPastBudget(7, now: start + Self.second * 23 / 10), "ended: free")
    }

    /// Loops read the clock apart: a time earlier than the holder's last progress is no stall
    /// (it was taken for one of about 584 years when the difference wrapped).
    @Test func aClockReadingOlderThanTheHoldersProgressIsNoStall() {
        let counter = ConnectionCounter()
        let start = 100 * Self.second
        #expect(counter.claimGrowthPastBudget(5, now: start))
        counter.grewPastBudget(5, now: start + Self.second)
        #expect(!counter.claimGrowthPastBudget(6, now: start + Self.second / 2))
        #expect(counter.claimGrowthPastBudget(5, now: start + Self.second), "still its holder's")
    }

    /// The turn's time is kept in milliseconds modulo 2^32: across the wrap (every 49 days of
    /// uptime) a stall is still a stall and progress still progress.
    @Test func theTurnsTimeWrapsWithoutHarm() {
        let counter = ConnectionCounter()
        let millisecond: UInt64 = 1_000_000
        let start = ((1 << 32) - 500) * millisecond
        #expect(counter.claimGrowthPastBudget(5, now: start))
        #expect(!counter.claimGrowthPastBudget(6, now: start + 900 * millisecond), "0.9 s, across the wrap: no stall")
        #expect(counter.claimGrowthPastBudget(6, now: start + 1_100 * millisecond), "1.1 s, across the wrap: a stall")
    }
}
