/// One reply from the daemon: the decoded value, the reply's raw `parameters` as one line of JSON
/// (for `--json`), and whether more replies follow for the same call.
public struct ClientReply<Value: Sendable>: Sendable {
    /// The decoded reply parameters.
    public var value: Value
    /// The reply's `parameters` object, serialized on one line.
    public var json: String
    /// Whether the daemon will send further replies to this call (the cached answer before the fresh one).
    public var continues: Bool

    /// Creates a reply.
    public init(value: Value, json: String, continues: Bool = false) {
        self.value = value
        self.json = json
        self.continues = continues
    }
}
