import Varlink

/// One reply from the daemon: the decoded value, the reply's `parameters` (written as one line of
/// JSON only for `--json`), and whether more replies follow for the same call.
public struct ClientReply<Value: Sendable>: Sendable {
    /// The decoded reply parameters.
    public var value: Value
    /// The reply's `parameters` object as received.
    public var parameters: JSONValue
    /// Whether the daemon will send further replies to this call (the cached answer before the fresh one).
    public var continues: Bool

    /// The reply's `parameters` object, serialized on one line (`--json`).
    public var json: String { String(decoding: parameters.serialized(), as: UTF8.self) }

    /// Creates a reply.
    public init(value: Value, parameters: JSONValue, continues: Bool = false) {
        self.value = value
        self.parameters = parameters
        self.continues = continues
    }
}
