/// Serves the methods of one Varlink interface.
///
/// The server answers `org.varlink.service.MethodNotFound` itself for methods that
/// ``interfaceDescription`` does not declare, so ``handle(_:replies:)`` only sees declared ones.
public protocol VarlinkInterfaceHandler: Sendable {
    /// The fully qualified interface name, e.g. `io.moviesd.Movies`.
    var interfaceName: String { get }
    /// The interface definition (`.varlink` text), served verbatim by `GetInterfaceDescription`.
    var interfaceDescription: String { get }
    /// Handles one call and returns the final reply's parameters; throws a ``VarlinkError``
    /// for an error reply. For a `more` call, intermediate replies go through `replies`.
    /// The task running this is cancelled when the caller disconnects or the call's deadline passes.
    func handle(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue]

    /// The final reply to `call` when it is already at hand (a fresh cache hit, say), or `nil` to
    /// run ``handle(_:replies:)`` in a task as usual. The server asks first, for every call, on its
    /// event loop thread, between reads from all clients: it must answer from memory, at once,
    /// and never block, wait or fail. An answer here ends the call (with or without `more`).
    func answerAtOnce(_ call: VarlinkCall) -> VarlinkPreparedReply?
}

extension VarlinkInterfaceHandler {
    /// Nothing is ever at hand: every call runs ``handle(_:replies:)``.
    public func answerAtOnce(_ call: VarlinkCall) -> VarlinkPreparedReply? { nil }
}
