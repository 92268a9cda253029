/// One method call received by a server, as handed to a ``VarlinkInterfaceHandler``.
public struct VarlinkCall: Sendable {
    /// The fully qualified method, e.g. `io.moviesd.Movies.Search`.
    public var method: String
    /// The interface part of ``method``, e.g. `io.moviesd.Movies`.
    public var interface: String
    /// The method part of ``method``, e.g. `Search`.
    public var methodName: String
    /// The call's parameters (empty when the message had none).
    public var parameters: [String: JSONValue]
    /// Whether the caller asked for a stream of replies (`more: true`).
    public var more: Bool
    /// Whether the caller wants no reply at all (`oneway: true`).
    public var oneway: Bool
    /// The credentials of the process on the other end of the connection (`SO_PEERCRED`).
    public var peer: PeerCredentials?
    /// Whether the server already sent this `more` call's first reply, the one
    /// ``VarlinkInterfaceHandler/answerAtOnce(_:)`` prepared with `continues`: the handler sends
    /// only what follows it.
    public var firstReplySent = false

    /// Creates a call; `method` is split at its last dot into ``interface`` and ``methodName``.
    public init(method: String, parameters: [String: JSONValue] = [:], more: Bool = false, oneway: Bool = false, peer: PeerCredentials? = nil) {
        self.method = method
        // On the UTF-8 view: an ASCII dot's index is a character boundary, and no `Character` is formed.
        if let dot = method.utf8.lastIndex(of: UInt8(ascii: ".")) {
            interface = String(method[..<dot])
            methodName = String(method[method.utf8.index(after: dot)...])
        } else {
            interface = ""
            methodName = method
        }
        self.parameters = parameters
        self.more = more
        self.oneway = oneway
        self.peer = peer
    }
}
