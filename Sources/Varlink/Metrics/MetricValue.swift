/// The value of one metric: an unsigned integer (counters and most gauges), a number with a
/// fraction (seconds), or a string (a `string` family's).
public enum MetricValue: Sendable, Hashable {
    /// A count.
    case unsigned(UInt64)
    /// A number with a fraction, such as a sum of seconds.
    case double(Double)
    /// A string.
    case string(String)

    /// The value as JSON: integers as integers (clamped to JSON's signed 64 bits), numbers as
    /// numbers, strings as strings.
    public var json: JSONValue {
        switch self {
        case .unsigned(let value): .int(Int64(clamping: value))
        case .double(let value): value.isFinite ? .double(value) : .int(0)
        case .string(let value): .string(value)
        }
    }
}
