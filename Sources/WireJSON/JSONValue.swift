/// A JSON value as carried in Varlink messages (RFC 8259).
///
/// Parse one with ``parse(_:)``; write one with ``serialized()`` or ``serialize(into:)``.
/// Numbers without a fraction or exponent that fit in 64 bits are ``int(_:)``; every other
/// number is ``double(_:)``.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integral number that fits in 64 bits.
    case int(Int64)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; keys are serialized in sorted order.
    case object([String: JSONValue])
    /// Pre-serialized JSON spliced verbatim by the serializer (for speed); never produced by the parser.
    /// The bytes must be one complete, valid JSON value.
    case raw([UInt8])
}

/// One member of a JSON object, as written: its name and value.
public typealias JSONMember = (name: String, value: JSONValue)

extension JSONValue {
    /// The member named `key` when this is an object, else `nil`.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The string when this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer when this is an int, or a double with an integral value in range.
    public var intValue: Int64? {
        switch self {
        case .int(let value): return value
        case .double(let value): return Int64(exactly: value)
        default: return nil
        }
    }

    /// The number as a double when this is an int or a double.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// The boolean when this is a bool.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members when this is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}
