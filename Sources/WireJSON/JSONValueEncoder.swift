/// Encodes `Encodable` values as ``JSONValue`` trees, without Foundation: the one encoder of the
/// wire (the daemon's replies, the replies it stores with each response).
///
/// Conventions, those of the Varlink interface: absent optionals are omitted (as the synthesized
/// `encodeIfPresent` asks), integers are ``JSONValue/int(_:)``, floating-point numbers must be
/// finite, object keys are written in sorted order by the serializer. Types the standard library
/// cannot describe as JSON (a date) are written by the ``WireScalars`` given.
public struct JSONValueEncoder: Sendable {
    /// How special types (a date) are written.
    public var scalars: WireScalars

    /// Creates an encoder.
    public init(scalars: WireScalars = WireScalars()) {
        self.scalars = scalars
    }

    /// `value` as a JSON tree.
    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        try TreeEncoder(scalars: scalars, codingPath: []).encodeTree(value)
    }
}

/// A node being built: a reference, so that nested containers fill their parent in place.
final class EncodingNode {
    enum Kind {
        case empty
        case value
        case object
        case array
    }

    var kind = Kind.empty
    var value = JSONValue.null
    var members: [String: EncodingNode] = [:]
    var elements: [EncodingNode] = []

    init() {}

    /// A finished leaf.
    init(_ value: JSONValue) {
        kind = .value
        self.value = value
    }

    /// The finished tree (an empty node, which nothing was written to, is an empty object).
    var tree: JSONValue {
        switch kind {
        case .empty: return .object([:])
        case .value: return value
        case .object: return .object(members.mapValues(\.tree))
        case .array: return .array(elements.map(\.tree))
        }
    }
}

/// The `Encoder` handed to a value's `encode(to:)`.
struct TreeEncoder: Encoder {
    let scalars: WireScalars
    let codingPath: [any CodingKey]
    let node: EncodingNode
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(scalars: WireScalars, codingPath: [any CodingKey], node: EncodingNode = EncodingNode()) {
        self.scalars = scalars
        self.codingPath = codingPath
        self.node = node
    }

    /// Encodes `value` into a fresh node and returns its tree.
    func encodeTree<T: Encodable>(_ value: T) throws -> JSONValue {
        if let scalar = try scalars.encode(value, codingPath: codingPath) { return scalar }
        try value.encode(to: self)
        return node.tree
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.kind != .object { node.kind = .object }
        return KeyedEncodingContainer(KeyedTreeEncoder<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.kind != .array { node.kind = .array }
        return UnkeyedTreeEncoder(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueTreeEncoder(encoder: self)
    }

    /// The tree of a primitive or nested value at `key` below this encoder.
    func child<T: Encodable>(_ value: T, at key: any CodingKey) throws -> JSONValue {
        try TreeEncoder(scalars: scalars, codingPath: codingPath + [key]).encodeTree(value)
    }

    static func number(_ value: Double, codingPath: [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: codingPath, debugDescription: "JSON has no \(value)"))
        }
        return .double(value)
    }

    static func integer<T: BinaryInteger>(_ value: T, codingPath: [any CodingKey]) throws -> JSONValue {
        guard let exact = Int64(exactly: value) else {
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: codingPath, debugDescription: "\(value) does not fit in 64 bits"))
        }
        return .int(exact)
    }
}

/// An index as a coding key, for the elements of arrays.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { intValue.map(String.init) ?? "" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}
