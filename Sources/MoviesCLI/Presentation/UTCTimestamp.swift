import FoundationEssentials
import MoviesDomain

/// Formats a date as "2026-11-22 01:00 UTC" without Foundation's date formatters.
enum UTCTimestamp {
    /// `date` in UTC, to the minute.
    static func describe(_ date: Date) -> String {
        let fields = WireDate.fields(of: date)
        return "\(fields.year)-\(twoDigits(fields.month))-\(twoDigits(fields.day)) \(twoDigits(fields.hour)):\(twoDigits(fields.minute)) UTC"
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
