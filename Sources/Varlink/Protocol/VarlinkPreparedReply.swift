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

    /// A reply whose small members `write` appends as JSON text (`"name":value`, comma-separated,
    /// sorted by name) into the message itself, then the member `name` whose value is the JSON
    /// text `json` (a name sorting after theirs), shared, not copied, when large.
    public init(continues: Bool = false, writingMembers write: (inout [UInt8]) -> Void, thenMember name: String, json: [UInt8]) {
        pieces = VarlinkMessage.encodeReplyPieces(continues: continues, writingMembers: write, thenMember: name, json: json)
        self.continues = continues
    }

    /// The message's bytes, without the NUL that ends it on the wire.
    var bytes: [UInt8] {
        Array(pieces.joined())
    }
}
