/// Decodes `Decodable` values from ``JSONValue`` trees, without Foundation: the one decoder of the
/// wire (the client reading the daemon's replies). The mirror of ``JSONValueEncoder``: a missing
/// or `null` member is an absent optional; an integer reads as a floating-point number, and a
/// floating-point number with an integral value as an integer.
public struct JSONValueDecoder: Sendable {
    /// How special types (a date) are read.
    public var scalars: WireScalars

    /// Creates a decoder.
    public init(scalars: WireScalars = WireScalars()) {
        self.scalars = scalars
    }

    /// The `T` that `json` describes; throws `DecodingError` naming where it does not fit.
    public func decode<T: Decodable>(_ type: T.Type, from json: JSONValue) throws -> T {
        try TreeDecoder(json: json, scalars: scalars, codingPath: []).decodeValue(type)
    }
}

/// The `Decoder` handed to a value's `init(from:)`.
struct TreeDecoder: Decoder {
    let json: JSONValue
    let scalars: WireScalars
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if let scalar = try scalars.decode(type, from: json, codingPath: codingPath) { return scalar }
        return try T(from: self)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = json else { throw mismatch([String: JSONValue].self) }
        return KeyedDecodingContainer(KeyedTreeDecoder<Key>(decoder: self, members: members))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = json else { throw mismatch([JSONValue].self) }
        return UnkeyedTreeDecoder(decoder: self, elements: elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueTreeDecoder(decoder: self)
    }

    func child(_ json: JSONValue, at key: any CodingKey) -> TreeDecoder {
        TreeDecoder(json: json, scalars: scalars, codingPath: codingPath + [key])
    }

    func mismatch(_ expected: Any.Type) -> DecodingError {
        DecodingError.typeMismatch(expected, DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(expected), found \(Self.kind(of: json))"))
    }

    // MARK: - Primitives, shared by the three containers

    func bool() throws -> Bool {
        guard case .bool(let value) = json else { throw mismatch(Bool.self) }
        return value
    }

    func string() throws -> String {
        guard case .string(let value) = json else { throw mismatch(String.self) }
        return value
    }

    func double() throws -> Double {
        guard let value = json.doubleValue else { throw mismatch(Double.self) }
        return value
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard let wide = json.intValue else { throw mismatch(type) }
        guard let value = T(exactly: wide) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: "\(wide) does not fit in \(type)"))
        }
        return value
    }

    static func kind(of json: JSONValue) -> String {
        switch json {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        case .raw: "raw JSON"
        }
    }
}
