import FoundationEssentials

/// Calendar arithmetic for the wire's dates (`yyyy-MM-ddTHH:mm:ssZ`, UTC, whole seconds, as
/// `WireCoding`'s `.iso8601` strategy writes them), without Foundation's calendars and formatters:
/// the daemon writes them on every cached answer and the client reads them on every reply.
public enum WireDate {
    /// The civil (proleptic Gregorian) date and time of day of `date` in UTC, its seconds rounded down.
    public struct Fields: Sendable, Hashable {
        /// The year, e.g. 2026.
        public var year: Int
        /// The month, 1–12.
        public var month: Int
        /// The day of the month, 1–31.
        public var day: Int
        /// The hour, 0–23.
        public var hour: Int
        /// The minute, 0–59.
        public var minute: Int
        /// The second, 0–59.
        public var second: Int
    }

    /// The dates the wire form covers: 1900-01-01T00:00:00Z up to 10000-01-01T00:00:00Z, as seconds
    /// since 1970. Outside it `WireDate` declines, and callers use `JSONEncoder`/`JSONDecoder`
    /// (before 1583 Foundation's calendar is Julian, not proleptic Gregorian).
    public static let supportedSeconds: Range<Double> = -2_208_988_800..<253_402_300_800

    /// Whether `date` is one the wire form covers (see `supportedSeconds`).
    public static func covers(_ date: Date) -> Bool {
        supportedSeconds.contains(date.timeIntervalSince1970.rounded(.down))
    }

    /// Appends `date` as `yyyy-MM-ddTHH:mm:ssZ` (no quotes), its seconds rounded down; `false`, with
    /// nothing appended, for a date outside `supportedSeconds`.
    public static func append(_ date: Date, to bytes: inout [UInt8]) -> Bool {
        guard covers(date) else { return false }
        let fields = fields(of: date)
        // Digit by digit, into `bytes` directly: a reply from memory writes one of these each time.
        func digits(_ value: Int, width: Int, then: Unicode.Scalar) {
            var divisor = width == 4 ? 1_000 : 10
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
            bytes.append(UInt8(ascii: then))
        }
        digits(fields.year, width: 4, then: "-")
        digits(fields.month, width: 2, then: "-")
        digits(fields.day, width: 2, then: "T")
        digits(fields.hour, width: 2, then: ":")
        digits(fields.minute, width: 2, then: ":")
        digits(fields.second, width: 2, then: "Z")
        return true
    }

    /// The UTC fields of `date`.
    public static func fields(of date: Date) -> Fields {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(daysSince1970: days)
        return Fields(year: year, month: month, day: day, hour: secondOfDay / 3_600, minute: secondOfDay / 60 % 60, second: secondOfDay % 60)
    }

    /// The proleptic Gregorian date `days` days after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    public static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    public static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Reads exactly `yyyy-MM-ddTHH:mm:ssZ` with a valid date and time in the years 1900–9999;
    /// `nil` for anything else (a caller that needs more falls back to `JSONDecoder`).
    public static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
                  bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z") else { return nil }
            func number(_ start: Int, _ count: Int) -> Int? {
                var value = 0
                for index in start..<(start + count) {
                    let digit = Int(bytes[index]) - Int(UInt8(ascii: "0"))
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
                  let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
                  year >= 1900, (1...12).contains(month), day >= 1, hour < 24, minute < 60, second < 60 else { return nil }
            let days = daysSince1970(year: year, month: month, day: day)
            // A day past the month's end would roll over into the next month: not a valid date.
            guard civilDate(daysSince1970: days) == (year, month, day) else { return nil }
            return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
        }
    }
}
