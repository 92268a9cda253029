import Varlink

/// Member readers as strict as the synthesized `Decodable` conformances, or stricter.
enum WireField {
    /// An integer written as one (`5`, not `5.0`, which is left to `JSONDecoder`).
    static func int(_ value: JSONValue?) -> Int? {
        guard case .int(let integer) = value else { return nil }
        return Int(exactly: integer)
    }

    /// An optional member: `.some(nil)` when absent or `null`, `.some(value)` when `read` reads it,
    /// `nil` when it holds something else.
    static func optional<T>(_ value: JSONValue?, _ read: (JSONValue) -> T?) -> T?? {
        guard let value, !value.isNull else { return .some(nil) }
        guard let read = read(value) else { return nil }
        return .some(read)
    }
}
