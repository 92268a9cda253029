import Glibc

/// CLOCK_MONOTONIC (never jumps with the wall clock): the one monotonic clock of the code. The
/// event loop's epoll timeouts, SQLite's progress handler, the deadline timer and the load
/// generator read it in nanoseconds; `TimeSource.system` (what rate limiting and retries are
/// injected with) and the request deadline in seconds.
public enum MonotonicClock {
    /// Now, in nanoseconds since an arbitrary start.
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Now, in seconds since the same start as ``now()``.
    public static func seconds() -> Double {
        Double(now()) / 1_000_000_000
    }

    /// `duration` in nanoseconds (zero for a negative one, at most about 584 years).
    public static func nanoseconds(_ duration: Duration) -> UInt64 {
        guard duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        let total = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
        return total >= Double(UInt64.max) ? UInt64.max : UInt64(max(0, total))
    }

    /// `seconds` in nanoseconds, clamped to a sane range.
    public static func nanoseconds(seconds: Int) -> UInt64 {
        UInt64(max(0, min(seconds, 100 * 365 * 86_400))) * 1_000_000_000
    }

    /// A timeout of `seconds` in nanoseconds; zero or less means no timeout (a century).
    public static func timeout(seconds: Int) -> UInt64 {
        seconds > 0 ? nanoseconds(seconds: seconds) : nanoseconds(seconds: 100 * 365 * 86_400)
    }
}
