/// How the codec writes and reads types that are one JSON scalar on the wire but not in their own
/// `Codable` conformance (Foundation's `Date` encodes as a number; the interface has RFC 3339
/// strings). The codec knows no such type itself: whoever configures it registers them.
public struct WireScalars: Sendable {
    private var writers: [ObjectIdentifier: @Sendable (Any) -> JSONValue?] = [:]
    private var readers: [ObjectIdentifier: @Sendable (JSONValue) -> Any?] = [:]

    /// No special types: everything through its own `Codable` conformance.
    public init() {}

    /// Writes every `T` with `write` (`nil`: the value cannot be written) and reads it with `read`
    /// (`nil`: the JSON is not a `T`).
    public mutating func register<T>(_ type: T.Type, write: @escaping @Sendable (T) -> JSONValue?, read: @escaping @Sendable (JSONValue) -> T?) {
        writers[ObjectIdentifier(type)] = { value in (value as? T).flatMap(write) }
        readers[ObjectIdentifier(type)] = { json in read(json) }
    }

    /// `value` written by its registered writer; `nil` when its type has none.
    func encode<T>(_ value: T, codingPath: [any CodingKey]) throws -> JSONValue? {
        guard !writers.isEmpty, let write = writers[ObjectIdentifier(T.self)] else { return nil }
        guard let json = write(value) else {
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: codingPath, debugDescription: "\(value) cannot be written on the wire"))
        }
        return json
    }

    /// Whether `T` has a registered reader.
    func reads<T>(_ type: T.Type) -> Bool {
        !readers.isEmpty && readers[ObjectIdentifier(type)] != nil
    }

    /// `json` read by `T`'s registered reader; `nil` when it has none.
    func decode<T>(_ type: T.Type, from json: JSONValue, codingPath: [any CodingKey]) throws -> T? {
        guard !readers.isEmpty, let read = readers[ObjectIdentifier(type)] else { return nil }
        guard let value = read(json) as? T else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: "not a valid \(type) on the wire"))
        }
        return value
    }
}
