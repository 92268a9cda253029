import FoundationEssentials
import MoviesDomain

/// Writes JSON bytes exactly as `WireCoding.makeEncoder()` (`JSONEncoder`, sorted keys, slashes not
/// escaped, ISO 8601 dates) writes them, without `JSONEncoder`'s per-call set-up and boxing: the
/// encoder of the reply types on the cached-answer path (`WireWritable`).
///
/// Where its output could differ from `JSONEncoder`'s — a non-finite double (which `JSONEncoder`
/// refuses) or a date outside the years 1900–9999 (before 1583 Foundation's calendar is Julian) —
/// it records a failure, and the caller encodes with `JSONEncoder` instead. Tests compare the two
/// on the recorded TMDB pages and on edge cases.
struct WireWriter {
    /// The bytes written so far.
    private(set) var bytes: [UInt8]
    /// Whether a value was met that only `JSONEncoder` writes faithfully.
    private(set) var failed = false
    /// Whether the next member or element needs a comma before it.
    private var needsComma = false

    /// Creates a writer with room for about `capacity` bytes.
    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    // MARK: Structure

    /// Writes `{`, the members `body` writes, and `}`.
    mutating func object(_ body: (inout WireWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Writes `[`, each element through `element`, and `]`.
    mutating func array<S: Sequence>(_ elements: S, _ element: (inout WireWriter, S.Element) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        for item in elements { element(&self, item) }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes the member name `name` (ASCII, nothing to escape) and its colon; the value follows.
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        needsComma = false
    }

    // MARK: Values

    /// An integer, in decimal.
    mutating func int(_ value: Int) {
        separate()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let start = bytes.count
        var magnitude = value.magnitude
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
        needsComma = true
    }

    /// A double as `JSONEncoder` writes it: Swift's shortest round-trip form, without a trailing
    /// `.0` (`8.0` is `8`). A non-finite value fails the writer.
    mutating func double(_ value: Double) {
        separate()
        guard value.isFinite else {
            failed = true
            return
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
        needsComma = true
    }

    /// `true` or `false`.
    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? [0x74, 0x72, 0x75, 0x65] : [0x66, 0x61, 0x6C, 0x73, 0x65])
        needsComma = true
    }

    /// A string, escaped as `JSONEncoder` escapes it: `"` and `\`, `\b \t \n \f \r`, other
    /// control characters as `\u00xx`; `/`, DEL and non-ASCII as they are.
    mutating func string(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var text = value
        text.withUTF8 { utf8 in
            // Runs of bytes that need no escape are copied at once.
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                appendEscaped(byte)
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
        case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
        case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        default:
            bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            bytes.append(Self.hexDigits[Int(byte >> 4)])
            bytes.append(Self.hexDigits[Int(byte & 0x0F)])
        }
    }

    /// A date as `.iso8601` writes it: `yyyy-MM-ddTHH:mm:ssZ` in UTC, the seconds rounded down.
    /// A date outside the years 1900–9999 fails the writer.
    mutating func date(_ value: Date) {
        separate()
        let interval = value.timeIntervalSince1970.rounded(.down)
        // 1900-01-01T00:00:00Z and 10000-01-01T00:00:00Z.
        guard interval >= -2_208_988_800, interval < 253_402_300_800 else {
            failed = true
            return
        }
        let fields = WireDate.fields(of: value)
        bytes.append(UInt8(ascii: "\""))
        appendDigits(fields.year, width: 4)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(fields.month, width: 2)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(fields.day, width: 2)
        bytes.append(UInt8(ascii: "T"))
        appendDigits(fields.hour, width: 2)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(fields.minute, width: 2)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(fields.second, width: 2)
        bytes.append(contentsOf: [UInt8(ascii: "Z"), UInt8(ascii: "\"")])
        needsComma = true
    }

    // MARK: Helpers

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func appendDigits(_ value: Int, width: Int) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }
}
