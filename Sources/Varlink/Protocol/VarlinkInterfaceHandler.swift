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

    /// The reply to `call` when it is already in memory (a cached answer), or `nil` to run
    /// ``handle(_:replies:)`` in a task as usual. The server asks first, for every call, on its
    /// event loop thread, between reads from all clients: it must answer from memory, at once, and
    /// never block, wait, do I/O or fail. A final reply ends the call; a reply with `continues`
    /// (for a `more` call only) is sent as the first one, and the call goes on in
    /// ``handle(_:replies:)`` with ``VarlinkCall/firstReplySent`` set.
    func answerAtOnce(_ call: VarlinkCall) -> VarlinkPreparedReply?

    /// The call deadline of the method `name` in seconds (0: none), or `nil` for the server's
    /// ``VarlinkServerConfiguration/callDeadlineSeconds``.
    func deadlineSeconds(forMethod name: String) -> Int?

    /// Whether the interface declares the method `name`. The server answers `MethodNotFound` at
    /// once, on its event loop, for a method that is not declared, without starting a task.
    func declares(method name: String) -> Bool
}

extension VarlinkInterfaceHandler {
    /// Nothing is ever at hand: every call runs ``handle(_:replies:)``.
    public func answerAtOnce(_ call: VarlinkCall) -> VarlinkPreparedReply? { nil }

    /// Every method has the server's deadline.
    public func deadlineSeconds(forMethod name: String) -> Int? { nil }
}
