/// Work done around every call a ``VarlinkRouter`` routes, in hummingbird's shape: it sees the
/// call and its route, and decides whether and how `next` (the rest of the chain, the method
/// last) runs.
public protocol VarlinkMiddleware: Sendable {
    /// Handles `call` for `route`, usually by calling `next`.
    func handle(
        _ call: VarlinkCall, route: VarlinkRoute, replies: VarlinkReplyWriter, next: VarlinkResponder
    ) async throws(VarlinkError) -> [String: JSONValue]
}

/// The router's first middleware: a call's parameters must be those its method declares in the
/// interface file, with every required one present and not `null`.
struct ParameterCheck: VarlinkMiddleware {
    let interface: InterfaceDescription

    func handle(
        _ call: VarlinkCall, route: VarlinkRoute, replies: VarlinkReplyWriter, next: VarlinkResponder
    ) async throws(VarlinkError) -> [String: JSONValue] {
        if let misfit = interface.methods[route.method]?.misfit(call.parameters) { throw .invalidParameter(misfit) }
        return try await next(call, replies)
    }
}

/// The router's second middleware: a method registered ``VarlinkAccess/authorized`` runs only for
/// peers `mayChange` admits; others get `org.varlink.service.PermissionDenied`.
struct AccessCheck: VarlinkMiddleware {
    let mayChange: @Sendable (PeerCredentials?) -> Bool

    func handle(
        _ call: VarlinkCall, route: VarlinkRoute, replies: VarlinkReplyWriter, next: VarlinkResponder
    ) async throws(VarlinkError) -> [String: JSONValue] {
        guard route.access == .anyone || mayChange(call.peer) else { throw .permissionDenied }
        return try await next(call, replies)
    }
}
