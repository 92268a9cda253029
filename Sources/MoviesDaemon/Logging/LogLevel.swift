/// How important a log line is, from `debug` (least) to `error` (most).
///
/// The raw values are the syslog priorities that the journal understands as `<N>` prefixes
/// (sd-daemon(3)): debug 7, info 6, notice 5, warning 4, error 3.
public enum LogLevel: Int32, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// Detail for diagnosing problems (every call, every fetch).
    case debug = 7
    /// Normal events: start, stop, configuration in use.
    case info = 6
    /// Noteworthy but normal: going offline, credential missing.
    case notice = 5
    /// Something went wrong but the daemon carries on.
    case warning = 4
    /// A failure that needs attention.
    case error = 3

    /// Parses a level name as written in `LogLevel=` or `--log-level` (case-insensitive).
    public init?(name: String) {
        switch name.lowercased() {
        case "debug": self = .debug
        case "info": self = .info
        case "notice": self = .notice
        case "warning", "warn": self = .warning
        case "error", "err": self = .error
        default: return nil
        }
    }

    /// The syslog priority, as used in the journal's `<N>` line prefix.
    public var syslogPriority: Int32 { rawValue }

    /// The level's name as written in configuration and log lines.
    public var description: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .notice: "notice"
        case .warning: "warning"
        case .error: "error"
        }
    }

    /// A level is "less than" another when it is less important.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
        lhs.rawValue > rhs.rawValue
    }
}
