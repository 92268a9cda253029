/// One reply received by a ``VarlinkClient``.
public struct VarlinkReply: Sendable {
    /// The reply's parameters, always an ``JSONValue/object(_:)`` (empty when absent).
    public var parameters: JSONValue
    /// Whether more replies follow for the same call.
    public var continues: Bool
    /// The fully qualified error name when this is an error reply (then it is the last one).
    public var error: String?

    /// Creates a reply.
    public init(parameters: JSONValue = .object([:]), continues: Bool = false, error: String? = nil) {
        self.parameters = parameters
        self.continues = continues
        self.error = error
    }
}
