/// Work done around every call a ``VarlinkRouter`` routes, in hummingbird's shape: it sees the
/// call and its route, and decides whether and how `next` (the rest of the chain, the method
/// last) runs, in the call's task.
///
/// A middleware that does not also declare it can run on the event loop
/// (``VarlinkEventLoopMiddleware``) is never skipped: the methods registered after it are not
/// answered from memory, every call of theirs runs in its task, through it (fail closed).
public protocol VarlinkMiddleware: Sendable {
    /// Handles `call` for `route`, usually by calling `next`.
    func handle(
        _ call: VarlinkCall, route: VarlinkRoute, replies: VarlinkReplyWriter, next: VarlinkResponder
    ) async throws(VarlinkError) -> [String: JSONValue]
}

/// A middleware that can also run on the server's event loop, around a route's answer from
/// memory: a call runs through the chain twice at most, through the same middleware both times,
/// first there (``answerAtOnce(_:route:next:)``), then, when nothing answered, in its task
/// (``VarlinkMiddleware/handle(_:route:replies:next:)``).
public protocol VarlinkEventLoopMiddleware: VarlinkMiddleware {
    /// The same around the route's answer from memory, on the event loop: usually `next(call)`;
    /// `nil` sends the call on to its task (where ``VarlinkMiddleware/handle(_:route:replies:next:)``
    /// decides). Must not block, wait or do I/O.
    func answerAtOnce(_ call: VarlinkCall, route: VarlinkRoute, next: (VarlinkCall) -> VarlinkPreparedReply?) -> VarlinkPreparedReply?
}

/// The router's first middleware: a call's parameters must be those its method declares in the
/// interface file, with every required one present and not `null`.
struct ParameterCheck: VarlinkEventLoopMiddleware {
    func handle(
        _ call: VarlinkCall, route: VarlinkRoute, replies: VarlinkReplyWriter, next: VarlinkResponder
    ) async throws(VarlinkError) -> [String: JSONValue] {
        if let misfit = route.inputs?.misfit(call.parameterList) { throw .invalidParameter(misfit) }
        return try await next(call, replies)
    }

    /// A call that does not fit is not answered from memory: its task replies with the error.
    func answerAtOnce(_ call: VarlinkCall, route: VarlinkRoute, next: (VarlinkCall) -> VarlinkPreparedReply?) -> VarlinkPreparedReply? {
        route.inputs?.misfit(call.parameterList) == nil ? next(call) : nil
    }
}

/// The router's second middleware: a method registered ``VarlinkAccess/authorized`` runs only for
/// peers `mayChange` admits; others get `org.varlink.service.PermissionDenied`.
struct AccessCheck: VarlinkEventLoopMiddleware {
    let mayChange: @Sendable (PeerCredentials?) -> Bool

    func handle(
        _ call: VarlinkCall, route: VarlinkRoute, replies: VarlinkReplyWriter, next: VarlinkResponder
    ) async throws(VarlinkError) -> [String: JSONValue] {
        guard route.access == .anyone || mayChange(call.peer) else { throw .permissionDenied }
        return try await next(call, replies)
    }

    /// A peer refused is not answered from memory: its task replies `PermissionDenied`.
    func answerAtOnce(_ call: VarlinkCall, route: VarlinkRoute, next: (VarlinkCall) -> VarlinkPreparedReply?) -> VarlinkPreparedReply? {
        route.access == .anyone || mayChange(call.peer) ? next(call) : nil
    }
}
