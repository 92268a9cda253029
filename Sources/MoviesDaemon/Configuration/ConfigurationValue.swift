import MoviesDomain
import Foundation

/// Parsers for the value syntaxes of systemd-style configuration: integers, booleans, durations with
/// unit suffixes, sizes, octal modes, paths and URLs.
///
/// Each returns the parsed value or throws a ``ConfigurationValueError`` saying what was expected.
public enum ConfigurationValue {
    /// A decimal integer within `range`.
    public static func integer(_ text: String, in range: ClosedRange<Int>) throws(ConfigurationValueError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw ConfigurationValueError(expectation(for: range, noun: "an integer"))
        }
        return value
    }

    /// A boolean as systemd spells it: yes/no, true/false, on/off, 1/0 (case-insensitive).
    public static func boolean(_ text: String) throws(ConfigurationValueError) -> Bool {
        switch text.lowercased() {
        case "yes", "true", "on", "1", "y", "t": return true
        case "no", "false", "off", "0", "n", "f": return false
        default: throw ConfigurationValueError("expected a boolean (yes or no)")
        }
    }

    /// A duration in whole seconds: a bare number of seconds, or numbers with systemd.time(7) units
    /// (`s`, `min`, `h`, `d`, `w` and their long forms), e.g. `90`, `5min`, `1h 30min`, `2d`.
    public static func durationSeconds(_ text: String, in range: ClosedRange<Int>) throws(ConfigurationValueError) -> Int {
        let failure = ConfigurationValueError(expectation(for: range, noun: "a duration such as 30, 30s, 5min, 2h or 1d"))
        if let plain = Int(text) {
            guard range.contains(plain) else { throw failure }
            return plain
        }
        var total = 0
        var scanner = Substring(text)
        var sawComponent = false
        while true {
            scanner = scanner.drop(while: { $0 == " " })
            if scanner.isEmpty { break }
            let digits = scanner.prefix(while: { $0.isASCII && $0.isNumber })
            guard !digits.isEmpty, let number = Int(digits) else { throw failure }
            scanner = scanner.dropFirst(digits.count).drop(while: { $0 == " " })
            let unit = scanner.prefix(while: { $0.isASCII && $0.isLetter })
            guard let multiplier = unitSeconds[String(unit).lowercased()] else { throw failure }
            scanner = scanner.dropFirst(unit.count)
            let (product, overflow) = number.multipliedReportingOverflow(by: multiplier)
            guard !overflow else { throw failure }
            let (sum, sumOverflow) = total.addingReportingOverflow(product)
            guard !sumOverflow else { throw failure }
            total = sum
            sawComponent = true
        }
        guard sawComponent, range.contains(total) else { throw failure }
        return total
    }

    /// A size in bytes: a number with an optional binary suffix `K`, `M`, `G` or `T` (powers of 1024).
    public static func byteCount(_ text: String, in range: ClosedRange<Int64>) throws(ConfigurationValueError) -> Int64 {
        let failure = ConfigurationValueError("expected a size in bytes between \(range.lowerBound) and \(range.upperBound) (suffixes K, M, G, T allowed)")
        var digits = Substring(text)
        var multiplier: Int64 = 1
        if let last = digits.last, let power = "KMGT".firstIndex(of: Character(last.uppercased())) {
            multiplier = Int64(1) << (10 * ("KMGT".distance(from: "KMGT".startIndex, to: power) + 1))
            digits = digits.dropLast()
        }
        guard let number = Int64(digits), number >= 0 else { throw failure }
        let (value, overflow) = number.multipliedReportingOverflow(by: multiplier)
        guard !overflow, range.contains(value) else { throw failure }
        return value
    }

    /// A file mode in octal, e.g. `0660`, at most `0777`.
    public static func octalMode(_ text: String) throws(ConfigurationValueError) -> UInt32 {
        guard !text.isEmpty, let mode = UInt32(text, radix: 8), mode <= 0o777 else {
            throw ConfigurationValueError("expected an octal file mode such as 0660")
        }
        return mode
    }

    /// An absolute file system path.
    public static func absolutePath(_ text: String) throws(ConfigurationValueError) -> String {
        guard text.hasPrefix("/"), !text.contains("\0") else {
            throw ConfigurationValueError("expected an absolute path")
        }
        return text
    }

    /// An absolute `http` or `https` URL with a host, returned with a trailing slash so that relative
    /// endpoint paths (`search/movie`) resolve beneath it.
    public static func baseURL(_ text: String) throws(ConfigurationValueError) -> String {
        guard let components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty,
              components.query == nil, components.fragment == nil,
              components.user == nil, components.password == nil
        else {
            throw ConfigurationValueError("expected an http or https URL such as https://api.themoviedb.org/3/")
        }
        return text.hasSuffix("/") ? text : text + "/"
    }

    /// Where the catalogue's exports are: an absolute `http` or `https` URL, either a pattern
    /// with `MM`, `DD` and `YYYY` or a base the file name is appended to (`CatalogueSettings.url`).
    public static func exportURL(_ text: String) throws(ConfigurationValueError) -> String {
        guard let components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty, components.user == nil, components.password == nil
        else {
            throw ConfigurationValueError("expected an http or https URL such as https://files.tmdb.org/p/exports/")
        }
        return text
    }

    /// A log level name: debug, info, notice, warning or error.
    public static func logLevel(_ text: String) throws(ConfigurationValueError) -> LogLevel {
        guard let level = LogLevel(name: text) else {
            throw ConfigurationValueError("expected one of debug, info, notice, warning, error")
        }
        return level
    }

    /// A language tag such as `en-US`, or the empty string for TMDB's default: the default
    /// `language` of searches and movie details, so it must be one a `Search` call would accept
    /// (`SearchRequest.isValidLanguage`).
    public static func language(_ text: String) throws(ConfigurationValueError) -> String? {
        if text.isEmpty { return nil }
        guard SearchRequest.isValidLanguage(text) else {
            throw ConfigurationValueError("expected a language tag such as en or en-US, or nothing")
        }
        return text
    }

    /// A positive decimal number, e.g. a rate per second.
    public static func positiveNumber(_ text: String) throws(ConfigurationValueError) -> Double {
        guard let value = Double(text), value.isFinite, value > 0 else {
            throw ConfigurationValueError("expected a positive number")
        }
        return value
    }

    private static let unitSeconds: [String: Int] = [
        "s": 1, "sec": 1, "second": 1, "seconds": 1,
        "m": 60, "min": 60, "minute": 60, "minutes": 60,
        "h": 3600, "hr": 3600, "hour": 3600, "hours": 3600,
        "d": 86400, "day": 86400, "days": 86400,
        "w": 604_800, "week": 604_800, "weeks": 604_800,
    ]

    private static func expectation(for range: ClosedRange<Int>, noun: String) -> String {
        if range.upperBound == Int.max {
            return range.lowerBound == 0 ? "expected \(noun), zero or more" : "expected \(noun), at least \(range.lowerBound)"
        }
        return "expected \(noun) between \(range.lowerBound) and \(range.upperBound)"
    }
}
