import Glibc

/// TMDB's timestamps of request tokens: `2026-11-25 10:13:00 UTC`.
enum TMDBTimestamp {
    /// `seconds` since 1970 as `YYYY-MM-DD HH:MM:SS UTC`.
    static func format(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) UTC"
    }
}
