/// A JSON document with ordered object keys, so the stub's bodies (and their ETags) are byte-stable.
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer number.
    case int(Int)
    /// A floating-point number, written in its shortest round-tripping form.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object whose members keep their insertion order.
    case object([(String, JSONValue)])

    /// A string, or `null` when `value` is nil.
    public static func optionalString(_ value: String?) -> JSONValue {
        value.map(JSONValue.string) ?? .null
    }

    /// Two values are equal when they serialize to the same bytes (member order matters).
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.serialized() == rhs.serialized()
    }

    /// The compact UTF-8 serialization of this value.
    public func serialized() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(into: &output)
        return output
    }

    private func write(into output: inout [UInt8]) {
        switch self {
        case .null:
            output.append(contentsOf: Array("null".utf8))
        case .bool(let value):
            output.append(contentsOf: Array((value ? "true" : "false").utf8))
        case .int(let value):
            output.append(contentsOf: Array(String(value).utf8))
        case .double(let value):
            output.append(contentsOf: Array(Self.format(value).utf8))
        case .string(let value):
            Self.writeString(value, into: &output)
        case .array(let values):
            output.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                value.write(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.writeString(member.0, into: &output)
                output.append(UInt8(ascii: ":"))
                member.1.write(into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func format(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) + ".0" }
        return String(value)
    }

    private static func writeString(_ value: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [92, 34])
            case UInt8(ascii: "\\"): output.append(contentsOf: [92, 92])
            case 0x0A: output.append(contentsOf: [92, UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [92, UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [92, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
