import Glibc

/// Nanoseconds on CLOCK_MONOTONIC (never jumps with the wall clock): the one monotonic clock of the
/// code that cannot use Swift's clocks (epoll timeouts, SQLite's progress handler, the load
/// generator's threads).
public enum MonotonicClock {
    /// Now, in nanoseconds since an arbitrary start.
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
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
