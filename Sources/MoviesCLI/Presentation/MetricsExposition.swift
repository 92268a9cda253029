import Varlink

/// The daemon's `io.systemd.Metrics` families and values written as Prometheus reads them: the
/// text exposition format 0.0.4 (what node_exporter's textfile collector and `promtool check
/// metrics` read) or OpenMetrics 1.0 (https://github.com/prometheus/OpenMetrics/blob/main/specification/OpenMetrics.md).
///
/// One rule maps the names: `io.moviesd.calls_total` is `moviesd_calls_total` (the leading `io.`
/// dropped, dots made underscores). `io.systemd.Metrics` has three types; Prometheus's are found
/// from the names as Prometheus spells them: families `X_bucket`, `X_sum` and `X_count` (counters
/// with an `le` field on the buckets) are one histogram `X`; `X_sum` and `X_count` without buckets a
/// summary `X`; a `string` family `X` is an info metric, `X_info{X="value"} 1`.
enum MetricsExposition {
    /// Which text format.
    enum Format: Sendable {
        /// Prometheus's text format 0.0.4.
        case prometheus
        /// OpenMetrics 1.0.0 (ends with `# EOF`).
        case openMetrics

        /// The format's HTTP content type, for reference.
        var contentType: String {
            switch self {
            case .prometheus: "text/plain; version=0.0.4; charset=utf-8"
            case .openMetrics: "application/openmetrics-text; version=1.0.0; charset=utf-8"
            }
        }
    }

    /// One Prometheus family: its name, type, help, and samples in order.
    struct Family {
        enum Kind: String {
            case counter, gauge, histogram, summary, info, unknown
        }

        let name: String
        let kind: Kind
        let help: String
        var samples: [Sample] = []
    }

    /// One sample line: its full name (with suffix), labels and value.
    struct Sample {
        let name: String
        let labels: [Metric.Field]
        let value: MetricValue
    }

    /// `report`'s families and values in `format`.
    static func text(_ report: MetricsReport, format: Format) -> String {
        var lines: [String] = []
        for family in families(of: report) {
            let exposedName = format == .openMetrics ? openMetricsName(family) : prometheusName(family)
            let type = typeName(family.kind, format: format)
            if format == .openMetrics {
                lines.append("# TYPE \(exposedName) \(type)")
                if !family.help.isEmpty { lines.append("# HELP \(exposedName) \(escapeHelp(family.help, format: format))") }
            } else {
                if !family.help.isEmpty { lines.append("# HELP \(exposedName) \(escapeHelp(family.help, format: format))") }
                lines.append("# TYPE \(exposedName) \(type)")
            }
            for sample in family.samples {
                let labels = sample.labels.isEmpty ? "" : "{" + sample.labels.map { "\($0.name)=\"\(escapeLabel($0.value))\"" }.joined(separator: ",") + "}"
                lines.append("\(sample.name)\(labels) \(number(sample.value))")
            }
        }
        if format == .openMetrics { lines.append("# EOF") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The Prometheus families of `report`, in name order.
    static func families(of report: MetricsReport) -> [Family] {
        let described = Dictionary(report.families.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var byName: [String: [Metric]] = [:]
        var order: [String] = []
        for metric in report.metrics {
            if byName[metric.name] == nil { order.append(metric.name) }
            byName[metric.name, default: []].append(metric)
        }
        var families: [String: Family] = [:]
        var taken = Set<String>()
        // Histograms and summaries first: their parts are taken, the rest stand alone.
        for name in order where name.hasSuffix("_sum") {
            let base = String(name.dropLast("_sum".count))
            guard let counts = byName[base + "_count"] else { continue }
            let buckets = byName[base + "_bucket"]
            let kind: Family.Kind = buckets == nil ? .summary : .histogram
            let parts = [base + "_bucket", base + "_count", base + "_sum"].compactMap { described[$0]?.description }
            var family = Family(name: prometheusName(base), kind: kind, help: commonPrefix(parts))
            family.samples = grouped(buckets: buckets ?? [], counts: counts, sums: byName[name] ?? [], base: family.name)
            families[family.name] = family
            taken.formUnion([name, base + "_count", base + "_bucket"])
        }
        for name in order where !taken.contains(name) {
            let described = described[name]
            let exposed = prometheusName(name)
            let metrics = byName[name] ?? []
            switch described?.kind {
            case .string?:
                let label = String(exposed.drop { $0 != "_" }.dropFirst())
                var family = Family(name: exposed, kind: .info, help: described?.description ?? "")
                family.samples = metrics.map { metric in
                    let text = if case .string(let value) = metric.value { value } else { number(metric.value) }
                    return Sample(name: exposed + "_info", labels: metric.fields + [Metric.Field(label.isEmpty ? "value" : label, text)], value: .unsigned(1))
                }
                families[exposed] = family
            case .counter?, .gauge?, nil:
                let kind: Family.Kind = described.map { $0.kind == .counter ? .counter : .gauge } ?? .unknown
                var family = Family(name: exposed, kind: kind, help: described?.description ?? "")
                family.samples = metrics.map { Sample(name: exposed, labels: $0.fields, value: $0.value) }
                families[exposed] = family
            }
        }
        return families.keys.sorted().compactMap { families[$0] }
    }

    /// A histogram's or summary's samples, grouped by label set: buckets (in the order listed,
    /// `le` last among the labels), then `_count`, then `_sum`.
    private static func grouped(buckets: [Metric], counts: [Metric], sums: [Metric], base: String) -> [Sample] {
        func key(_ fields: [Metric.Field]) -> String {
            fields.filter { $0.name != "le" }.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
        }
        var samples: [Sample] = []
        for count in counts {
            let group = key(count.fields)
            for bucket in buckets where key(bucket.fields) == group {
                let labels = bucket.fields.filter { $0.name != "le" } + bucket.fields.filter { $0.name == "le" }
                samples.append(Sample(name: base + "_bucket", labels: labels, value: bucket.value))
            }
            samples.append(Sample(name: base + "_count", labels: count.fields, value: count.value))
            for sum in sums where key(sum.fields) == group {
                samples.append(Sample(name: base + "_sum", labels: sum.fields, value: sum.value))
            }
        }
        return samples
    }

    /// `io.moviesd.calls_total` → `moviesd_calls_total`: the leading `io.` dropped, and every
    /// character Prometheus does not allow in a name (dots) made an underscore.
    static func prometheusName(_ name: String) -> String {
        let trimmed = name.hasPrefix("io.") ? String(name.dropFirst(3)) : name
        return String(trimmed.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") ? $0 : "_" })
    }

    /// The name a family has in the text format 0.0.4: its own, and `_info` added for an info metric.
    private static func prometheusName(_ family: Family) -> String {
        family.kind == .info ? family.name + "_info" : family.name
    }

    /// The name a family has in OpenMetrics: a counter's without `_total` (its samples keep it).
    private static func openMetricsName(_ family: Family) -> String {
        family.kind == .counter && family.name.hasSuffix("_total") ? String(family.name.dropLast("_total".count)) : family.name
    }

    private static func typeName(_ kind: Family.Kind, format: Format) -> String {
        switch (kind, format) {
        case (.info, .prometheus): "gauge"
        case (.unknown, .prometheus): "untyped"
        case (.counter, .openMetrics) : "counter"
        default: kind.rawValue
        }
    }

    /// A value as both formats write numbers: integers as integers, others as Swift writes a
    /// `Double` (`0.25`, `1e-05`), which both parse.
    static func number(_ value: MetricValue) -> String {
        switch value {
        case .unsigned(let count): String(count)
        case .double(let number):
            number.isNaN ? "NaN" : number.isInfinite ? (number > 0 ? "+Inf" : "-Inf")
                : number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
        case .string: "1"
        }
    }

    /// The longest start `texts` share, cut at a word and without a trailing colon: a histogram's help.
    private static func commonPrefix(_ texts: [String]) -> String {
        guard var prefix = texts.first else { return "" }
        for text in texts.dropFirst() {
            prefix = String(zip(prefix, text).prefix { $0 == $1 }.map(\.0))
        }
        if prefix.count < (texts.first?.count ?? 0), let space = prefix.lastIndex(of: " ") { prefix = String(prefix[..<space]) }
        while let last = prefix.last, last == ":" || last == " " { prefix.removeLast() }
        return prefix
    }

    /// A label value escaped: backslash, double quote and line feed.
    static func escapeLabel(_ value: String) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// A help text escaped: backslash and line feed (and, in OpenMetrics, double quote).
    static func escapeHelp(_ text: String, format: Format) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\"" where format == .openMetrics: escaped += "\\\""
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
