import FoundationEssentials

/// A UTC calendar day (`YYYY-MM-DD`, as TMDB's change feed takes it): days since 1970-01-01.
public struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Days since 1970-01-01 (UTC).
    public let day: Int

    /// The day `day` days after 1970-01-01.
    public init(day: Int) {
        self.day = day
    }

    /// The UTC day of `date`.
    public init(_ date: Date) {
        day = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
    }

    /// Parses `YYYY-MM-DD`; `nil` for anything else or an impossible date.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        let candidate = CalendarDay(day: WireDate.daysSince1970(year: year, month: month, day: day))
        guard candidate.description == text else { return nil }  // 2026-02-30 is not a day
        self = candidate
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        let (year, month, day) = WireDate.civilDate(daysSince1970: self.day)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))"
    }

    /// The day's first instant.
    public var start: Date { Date(timeIntervalSince1970: Double(day) * 86_400) }

    /// The day `count` days later (earlier when negative).
    public func adding(days count: Int) -> CalendarDay { CalendarDay(day: day + count) }

    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool { lhs.day < rhs.day }
}
