/// A reply encoded ahead of time, ready to be written as it is: what
/// ``VarlinkInterfaceHandler/answerAtOnce(_:)`` returns.
public struct VarlinkPreparedReply: Sendable {
    /// The message in pieces (see ``VarlinkMessage/encodeReplyPieces(_:continues:)``), without
    /// the NUL that ends it on the wire.
    let pieces: [[UInt8]]
    /// Whether more replies follow (`continues: true`): the call goes on in its handler.
    public let continues: Bool

    /// Encodes a successful reply with `parameters`: the final one, or with `continues` the first
    /// of a `more` call's replies. Raw values of a few kilobytes or more are not copied.
    public init(parameters: [String: JSONValue], continues: Bool = false) {
        pieces = VarlinkMessage.encodeReplyPieces(parameters, continues: continues)
        self.continues = continues
    }

    /// A reply whose parameters are JSON text already, `members` in the order given (sorted by
    /// name, as every reply writes them); large ones are shared, not copied.
    public init(rawMembers members: KeyValuePairs<String, [UInt8]>, continues: Bool = false) {
        pieces = VarlinkMessage.encodeReplyPieces(rawMembers: members, continues: continues)
        self.continues = continues
    }

    /// The message's bytes, without the NUL that ends it on the wire.
    var bytes: [UInt8] {
        Array(pieces.joined())
    }
}
