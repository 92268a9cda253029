import Varlink

/// The daemon's metrics as `io.systemd.Metrics` reports them: every family (`Describe`) and every
/// value (`List`), with each reply's parameters as received (`movies metrics --json`).
public struct MetricsReport: Sendable {
    /// The families, as described.
    public var families: [MetricFamily]
    /// The values, as listed.
    public var metrics: [Metric]
    /// `Describe`'s replies' parameters, as received.
    public var describeReplies: [JSONValue]
    /// `List`'s replies' parameters, as received.
    public var listReplies: [JSONValue]

    /// Creates a report.
    public init(families: [MetricFamily] = [], metrics: [Metric] = [], describeReplies: [JSONValue] = [], listReplies: [JSONValue] = []) {
        self.families = families
        self.metrics = metrics
        self.describeReplies = describeReplies
        self.listReplies = listReplies
    }

    /// A family from one `Describe` reply's parameters (`nil` when it is not one).
    static func family(from parameters: JSONValue) -> MetricFamily? {
        guard let name = parameters["name"]?.stringValue, let type = parameters["type"]?.stringValue,
              let kind = MetricFamily.Kind(rawValue: type) else { return nil }
        return MetricFamily(name, kind, parameters["description"]?.stringValue ?? "")
    }

    /// A value from one `List` reply's parameters (`nil` when it is not one).
    static func metric(from parameters: JSONValue) -> Metric? {
        guard let name = parameters["name"]?.stringValue, let raw = parameters["value"] else { return nil }
        let value: MetricValue
        switch raw {
        case .int(let number): value = .unsigned(UInt64(clamping: max(0, number)))
        case .double(let number): value = .double(number)
        case .string(let text): value = .string(text)
        default: return nil
        }
        let fields = (parameters["fields"]?.objectValue ?? [:]).compactMap { name, value in
            value.stringValue.map { Metric.Field(name, $0) }
        }.sorted { $0.name < $1.name }
        return Metric(name, value, fields: fields, object: parameters["object"]?.stringValue)
    }
}
