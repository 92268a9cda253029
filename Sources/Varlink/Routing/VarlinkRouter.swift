/// Serves one interface from a table of methods, each registered with its access level and
/// deadline, through a chain of middleware (after hummingbird's router).
///
/// Every call passes the built-in middleware first: the parameters are checked against the
/// interface file, then the access level against `mayChange`; then the middleware added with
/// ``add(_:)``, in order; then the method. The fast path (``answerAtOnce(_:)``) is offered only
/// to methods open to ``VarlinkAccess/anyone`` whose parameters fit, so it can never skip a check.
public struct VarlinkRouter: VarlinkInterfaceHandler {
    public let interfaceName: String
    public let interfaceDescription: String
    private let interface: InterfaceDescription
    private var routes: [String: VarlinkRoute] = [:]
    private var chain: [any VarlinkMiddleware]

    /// Creates a router for the interface `name` described by `description` (`.varlink` text);
    /// `mayChange` decides who may call the methods registered ``VarlinkAccess/authorized``.
    public init(interfaceName name: String, interfaceDescription description: String, mayChange: @escaping @Sendable (PeerCredentials?) -> Bool) {
        interfaceName = name
        interfaceDescription = description
        interface = InterfaceDescription(text: description)
        chain = [ParameterCheck(interface: interface), AccessCheck(mayChange: mayChange)]
    }

    /// Adds `middleware` after those already added (it runs after them, around the method).
    public mutating func add(_ middleware: any VarlinkMiddleware) {
        chain.append(middleware)
    }

    /// Registers `method`: who may call it, its deadline (`nil`: the server's; 0: none), the
    /// reply it can give from memory (methods open to anyone only), and its work.
    public mutating func on(
        _ method: String, access: VarlinkAccess, deadlineSeconds: Int? = nil,
        answerAtOnce: (@Sendable (VarlinkCall) -> VarlinkPreparedReply?)? = nil,
        _ responder: @escaping VarlinkResponder
    ) {
        routes[method] = VarlinkRoute(
            method: method, access: access, deadlineSeconds: deadlineSeconds,
            answerAtOnce: access == .anyone ? answerAtOnce : nil, responder: responder)
    }

    /// The registered route of `method`, if any.
    public func route(_ method: String) -> VarlinkRoute? { routes[method] }

    /// Methods the interface declares that nothing is registered for (they answer
    /// `MethodNotImplemented`), and registered methods it does not declare (never called): both
    /// empty for a complete service.
    public var mismatchedMethods: (unregistered: [String], undeclared: [String]) {
        (interface.methodNames.subtracting(routes.keys).sorted(), Set(routes.keys).subtracting(interface.methodNames).sorted())
    }

    public func handle(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        guard let route = routes[call.methodName] else {
            throw interface.methods[call.methodName] == nil ? .methodNotFound(call.method) : .methodNotImplemented(call.method)
        }
        return try await run(call, replies: replies, route: route, from: 0)
    }

    private func run(_ call: VarlinkCall, replies: VarlinkReplyWriter, route: VarlinkRoute, from index: Int) async throws(VarlinkError) -> [String: JSONValue] {
        guard index < chain.count else { return try await route.responder(call, replies) }
        let next: VarlinkResponder = { (call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] in
            try await run(call, replies: replies, route: route, from: index + 1)
        }
        return try await chain[index].handle(call, route: route, replies: replies, next: next)
    }

    public func answerAtOnce(_ call: VarlinkCall) -> VarlinkPreparedReply? {
        guard let route = routes[call.methodName], let answer = route.answerAtOnce,
              interface.methods[call.methodName]?.misfit(call.parameters) == nil else { return nil }
        return answer(call)
    }

    public func deadlineSeconds(forMethod name: String) -> Int? {
        routes[name]?.deadlineSeconds
    }
}
