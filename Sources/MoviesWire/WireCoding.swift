import FoundationEssentials
import MoviesDomain
import WireJSON

/// The wire's one codec, shared by the daemon (its replies, and the reply stored with each
/// response) and the client (reading them): the domain types' `Codable` shapes are the Varlink
/// interface's types, encoded by `WireJSON`'s encoder and decoder, with dates as RFC 3339 UTC
/// strings (`2026-11-22T03:00:23Z`, `WireDate`) and absent optionals omitted.
public enum WireCoding {
    /// The version of the shapes this codec writes. Stored with each cached reply (the reply bytes
    /// kept next to TMDB's body): a reply stored at another version is not served; the body is
    /// decoded and encoded in today's shape instead. Bump it whenever a reply type's shape changes
    /// (a field added, renamed or re-typed), so that no cache serves yesterday's shape.
    public static let version = 2

    /// The types the codec writes as one string: dates.
    public static let scalars: WireScalars = {
        var scalars = WireScalars()
        scalars.register(Date.self, write: { date in
            var bytes: [UInt8] = []
            guard WireDate.append(date, to: &bytes) else { return nil }
            return .string(String(decoding: bytes, as: UTF8.self))
        }, read: { json in
            json.stringValue.flatMap(WireDate.parse)
        })
        return scalars
    }()

    private static let encoder = JSONValueEncoder(scalars: scalars)
    private static let decoder = JSONValueDecoder(scalars: scalars)

    /// `value` as a JSON tree.
    public static func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        try encoder.encode(value)
    }

    /// `value`'s JSON text.
    public static func bytes<T: Encodable>(_ value: T) throws -> [UInt8] {
        try encode(value).serialized()
    }

    /// The `T` that `json` describes.
    public static func decode<T: Decodable>(_ type: T.Type, from json: JSONValue) throws -> T {
        try decoder.decode(type, from: json)
    }

    /// The `T` that the JSON text `bytes` describes.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try decode(type, from: JSONValue.parse(bytes))
    }

    /// A reply's parameters: the members of `reply` encoded as an object (empty if it cannot be,
    /// which the reply types, made of strings, numbers, booleans and dates, always can).
    public static func parameters<T: Encodable>(_ reply: T) -> [String: JSONValue] {
        (try? encode(reply))?.objectValue ?? [:]
    }
}
