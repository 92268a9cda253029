import FoundationEssentials
import MoviesDomain
import Varlink

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
        JSONValue.serializeString(value, into: &bytes)
        needsComma = true
    }

    /// A date as `.iso8601` writes it: `yyyy-MM-ddTHH:mm:ssZ` in UTC, the seconds rounded down
    /// (`WireDate`). A date outside `WireDate.supportedSeconds` fails the writer.
    mutating func date(_ value: Date) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        guard WireDate.append(value, to: &bytes) else {
            failed = true
            return
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    // MARK: Helpers

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }
}
