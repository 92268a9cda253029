/// A final reply encoded ahead of time, ready to be written as it is: what
/// ``VarlinkInterfaceHandler/answerAtOnce(_:)`` returns, and what a handler may keep and hand out
/// again for as long as the answer stays the same.
public struct VarlinkPreparedReply: Sendable {
    /// The message's bytes, without the NUL that ends it on the wire.
    let bytes: [UInt8]

    /// Encodes a successful final reply with `parameters`.
    public init(parameters: [String: JSONValue]) {
        bytes = VarlinkMessage.encodeReply(parameters, continues: false)
    }

    /// The encoded message's size in bytes.
    public var byteCount: Int { bytes.count }
}
