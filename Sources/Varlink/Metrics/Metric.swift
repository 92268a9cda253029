/// One value of a metric family, as `io.systemd.Metrics.List` replies with it: the family's
/// name, the value, and the fields (labels) that tell it from the family's other values.
public struct Metric: Sendable, Hashable {
    /// The family's name.
    public let name: String
    /// The value.
    public let value: MetricValue
    /// The fields, in the order they are written (`method`, `outcome`, `le`, …); values are strings.
    public let fields: [Field]
    /// What the value is about when it is one of many objects (systemd: a unit's name); unused
    /// values leave it `nil`.
    public let object: String?

    /// One field of a metric.
    public struct Field: Sendable, Hashable {
        /// The field's name, e.g. `method`.
        public let name: String
        /// Its value, e.g. `io.moviesd.Movies.Search`.
        public let value: String

        /// Creates a field.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Creates a value of the family `name`.
    public init(_ name: String, _ value: MetricValue, fields: [Field] = [], object: String? = nil) {
        self.name = name
        self.value = value
        self.fields = fields
        self.object = object
    }

    /// The reply parameters of `io.systemd.Metrics.List` for this value: `name`, `value`, and
    /// `object` and `fields` when there are any (systemd omits them otherwise).
    public var parameters: [String: JSONValue] {
        var parameters: [String: JSONValue] = ["name": .string(name), "value": value.json]
        if let object, !object.isEmpty { parameters["object"] = .string(object) }
        if !fields.isEmpty {
            parameters["fields"] = .object(Dictionary(fields.map { ($0.name, JSONValue.string($0.value)) }, uniquingKeysWith: { _, last in last }))
        }
        return parameters
    }
}
