/// One family of metrics as systemd's `io.systemd.Metrics.Describe` reports it: its name, a
/// sentence saying what it counts, and its type.
///
/// Names are a Varlink interface name and a field name joined by a dot (`io.moviesd.calls_total`):
/// `systemd-report` takes only names under the name of the socket it found them on
/// (`/run/systemd/report/io.moviesd`), and refuses others as invalid. See systemd's
/// `src/shared/varlink-io.systemd.Metrics.c` and `src/report/report.c`.
public struct MetricFamily: Sendable, Hashable {
    /// What kind of values a family has (systemd's `MetricFamilyType`).
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// An integer that only goes up (until the daemon restarts).
        case counter
        /// A number that goes up and down.
        case gauge
        /// A string, such as a version or a state.
        case string
    }

    /// The family's name, e.g. `io.moviesd.calls_total`.
    public let name: String
    /// What it counts, in one sentence.
    public let description: String
    /// Its type.
    public let kind: Kind

    /// Creates a family.
    public init(_ name: String, _ kind: Kind, _ description: String) {
        self.name = name
        self.kind = kind
        self.description = description
    }

    /// Whether `name` is one `systemd-report` accepts under the prefix `service`: an interface
    /// name, a dot, and a Varlink field name (a letter, then letters, digits and single inner
    /// underscores), the interface name being `service` or under it.
    public static func isValidName(_ name: String, under service: String) -> Bool {
        guard name.hasPrefix(service + "."), let dot = name.lastIndex(of: ".") else { return false }
        let field = name[name.index(after: dot)...]
        guard let first = field.first, first.isASCII, first.isLetter, field.last != "_", !field.contains("__") else { return false }
        return field.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }
}
