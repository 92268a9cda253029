/// A reply encoded ahead of time, ready to be written as it is: what
/// ``VarlinkInterfaceHandler/answerAtOnce(_:)`` returns.
public struct VarlinkPreparedReply: Sendable {
    /// The message's bytes, without the NUL that ends it on the wire.
    let bytes: [UInt8]
    /// Whether more replies follow (`continues: true`): the call goes on in its handler.
    public let continues: Bool

    /// Encodes a successful reply with `parameters`: the final one, or with `continues` the first
    /// of a `more` call's replies.
    public init(parameters: [String: JSONValue], continues: Bool = false) {
        bytes = VarlinkMessage.encodeReply(parameters, continues: continues)
        self.continues = continues
    }

    /// The encoded message's size in bytes.
    public var byteCount: Int { bytes.count }
}
