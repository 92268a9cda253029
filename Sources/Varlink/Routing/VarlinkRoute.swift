/// One method as registered with a ``VarlinkRouter``: what middleware sees of it.
public struct VarlinkRoute: Sendable {
    /// The method's name within its interface, e.g. `Search`.
    public let method: String
    /// Who may call it.
    public let access: VarlinkAccess
    /// Its own call deadline in seconds (0: none), or `nil` for the server's.
    public let deadlineSeconds: Int?
    /// The method's reply when it is already in memory (see
    /// ``VarlinkInterfaceHandler/answerAtOnce(_:)``), through the middleware chain.
    let answerAtOnce: (@Sendable (VarlinkCall) -> VarlinkPreparedReply?)?
    /// The method's own work, through the middleware chain.
    let responder: VarlinkResponder
    /// The parameters the interface file declares for it (`nil`: it declares no such method).
    let inputs: InterfaceDescription.Inputs?
}

/// Who may call a method: every registration says which, so a method that changes something cannot
/// be registered without its permission check.
public enum VarlinkAccess: Sendable, Equatable {
    /// Any peer that can reach the socket (reads, as in systemd's daemons).
    case anyone
    /// Only peers the router's authorisation admits (methods that change state).
    case authorized
}

/// Answers one call: its final reply's parameters, or a ``VarlinkError``; a `more` call's
/// intermediate replies go through the writer.
public typealias VarlinkResponder = @Sendable (VarlinkCall, VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue]
