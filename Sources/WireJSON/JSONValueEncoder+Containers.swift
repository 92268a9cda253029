/// Writes an object's members.
struct KeyedTreeEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ value: JSONValue, for key: Key) {
        encoder.node.members[key.stringValue] = EncodingNode(value)
    }

    mutating func encodeNil(forKey key: Key) throws { set(.null, for: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), for: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), for: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try TreeEncoder.number(value, codingPath: codingPath + [key]), for: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(try TreeEncoder.number(Double(value), codingPath: codingPath + [key]), for: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(Int64(value)), for: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.int(Int64(value)), for: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.int(Int64(value)), for: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.int(Int64(value)), for: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(.int(value), for: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(try TreeEncoder.integer(value, codingPath: codingPath + [key]), for: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.int(Int64(value)), for: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.int(Int64(value)), for: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.int(Int64(value)), for: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(try TreeEncoder.integer(value, codingPath: codingPath + [key]), for: key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        set(try encoder.child(value, at: key), for: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        nested(key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        nested(key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { nested(SuperKey()) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { nested(key) }

    private func nested(_ key: any CodingKey) -> TreeEncoder {
        let node = EncodingNode()
        encoder.node.members[key.stringValue] = node
        return TreeEncoder(scalars: encoder.scalars, codingPath: codingPath + [key], node: node)
    }
}

/// The key of `super` in an object.
struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}

/// Writes an array's elements.
struct UnkeyedTreeEncoder: UnkeyedEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.node.elements.count }

    private func append(_ value: JSONValue) {
        encoder.node.elements.append(EncodingNode(value))
    }

    private var nextKey: IndexKey { IndexKey(count) }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(try TreeEncoder.number(value, codingPath: codingPath + [nextKey])) }
    mutating func encode(_ value: Float) throws { append(try TreeEncoder.number(Double(value), codingPath: codingPath + [nextKey])) }
    mutating func encode(_ value: Int) throws { append(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { append(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { append(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { append(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { append(.int(value)) }
    mutating func encode(_ value: UInt) throws { append(try TreeEncoder.integer(value, codingPath: codingPath + [nextKey])) }
    mutating func encode(_ value: UInt8) throws { append(.int(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { append(.int(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { append(.int(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { append(try TreeEncoder.integer(value, codingPath: codingPath + [nextKey])) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        append(try encoder.child(value, at: nextKey))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        nested().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        nested().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { nested() }

    private func nested() -> TreeEncoder {
        let key = nextKey
        let node = EncodingNode()
        encoder.node.elements.append(node)
        return TreeEncoder(scalars: encoder.scalars, codingPath: codingPath + [key], node: node)
    }
}

/// Writes one value.
struct SingleValueTreeEncoder: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ value: JSONValue) {
        encoder.node.kind = .value
        encoder.node.value = value
    }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try TreeEncoder.number(value, codingPath: codingPath)) }
    mutating func encode(_ value: Float) throws { set(try TreeEncoder.number(Double(value), codingPath: codingPath)) }
    mutating func encode(_ value: Int) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { set(.int(value)) }
    mutating func encode(_ value: UInt) throws { set(try TreeEncoder.integer(value, codingPath: codingPath)) }
    mutating func encode(_ value: UInt8) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { set(try TreeEncoder.integer(value, codingPath: codingPath)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        set(try TreeEncoder(scalars: encoder.scalars, codingPath: codingPath).encodeTree(value))
    }
}
