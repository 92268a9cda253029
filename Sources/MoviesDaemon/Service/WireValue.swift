import FoundationEssentials
import MoviesDomain
import Varlink

/// Encodes domain values as reply parameters: the bytes of the Codable shape (`WireCoding`),
/// spliced into the reply without a second pass through `JSONValue`.
enum WireValue {
    /// The encoded value, or `null` if the value cannot be encoded (it always can: the domain types
    /// hold only strings, numbers, booleans, dates and arrays of them).
    static func encode<T: Encodable>(_ value: T) -> JSONValue {
        guard let bytes = try? WireCoding.makeEncoder().encode(value) else { return .null }
        return .raw(Array(bytes))
    }
}
