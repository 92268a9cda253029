/// The daemon's one back-off: a pause that doubles with each failure in a row, from
/// `initialSeconds` up to `maxSeconds`, spread by ±`jitterFraction` so that many waiters do not
/// come back at the same instant.
///
/// Every pause that grows uses it: a request's retries (`RetryPolicy`, ±50 %), `RemoteHealth`'s
/// retry pause of background work, the refresh scheduler, the account outbox and the looks of
/// `sync --wait`; each keeps only its own count of failures.
public struct Backoff: Sendable, Hashable {
    /// The pause after the first failure, in seconds.
    public var initialSeconds: Double
    /// The longest pause, in seconds.
    public var maxSeconds: Double
    /// The jitter as a fraction of the pause: 0.2 spreads it over ±20 %; 0 none.
    public var jitterFraction: Double

    /// Creates a back-off.
    public init(initialSeconds: Double, maxSeconds: Double, jitterFraction: Double = 0) {
        self.initialSeconds = max(0, initialSeconds)
        self.maxSeconds = max(0, maxSeconds)
        self.jitterFraction = min(max(jitterFraction, 0), 1)
    }

    /// The pause after `failures` failures in a row (1 is the first), jittered by `randomUnit`
    /// (a number in `0..<1`; 0.5 means no jitter). Never more than `maxSeconds`: at the cap, the
    /// jitter only shortens it.
    public func seconds(afterFailures failures: Int, randomUnit: Double = 0.5) -> Double {
        let doublings = min(max(failures - 1, 0), 30)
        let base = min(maxSeconds, initialSeconds * Double(1 << doublings))
        let unit = min(max(randomUnit, 0), 1)
        return min(maxSeconds, max(0, base * (1 - jitterFraction + 2 * jitterFraction * unit)))
    }
}
