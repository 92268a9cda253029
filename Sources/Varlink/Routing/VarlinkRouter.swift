/// Serves one interface from a table of methods, each registered with its access level and
/// deadline, through a chain of middleware (after hummingbird's router).
///
/// Every call passes the built-in middleware first: the parameters are checked against the
/// interface file, then the access level against `mayChange`; then the middleware added with
/// ``add(_:)``, in order; then the method. A method's answer from memory (``answerAtOnce(_:)``,
/// on the event loop) passes the same chain (``VarlinkEventLoopMiddleware/answerAtOnce(_:route:next:)``),
/// so checks, limits and logging apply to every answer; a method with a middleware that cannot
/// run there is not answered from memory at all. Both chains are composed once, when the method
/// is registered (add middleware before registering methods).
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
        chain = [ParameterCheck(), AccessCheck(mayChange: mayChange)]
    }

    /// Adds `middleware` after those already added (it runs after them, around the methods
    /// registered from now on).
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
        let inputs = interface.methods[method]
        let bare = VarlinkRoute(method: method, access: access, deadlineSeconds: deadlineSeconds, answerAtOnce: answerAtOnce, responder: responder, inputs: inputs)
        // Composed once, innermost first: each middleware gets the rest of the chain as `next`.
        var composed = responder
        var composedAtOnce = answerAtOnce
        for middleware in chain.reversed() {
            let next = composed
            composed = { (call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] in
                try await middleware.handle(call, route: bare, replies: replies, next: next)
            }
            // A middleware that cannot run on the event loop runs in the task: nothing at once.
            if let nextAtOnce = composedAtOnce, let middleware = middleware as? any VarlinkEventLoopMiddleware {
                composedAtOnce = { call in middleware.answerAtOnce(call, route: bare, next: nextAtOnce) }
            } else {
                composedAtOnce = nil
            }
        }
        routes[method] = VarlinkRoute(method: method, access: access, deadlineSeconds: deadlineSeconds, answerAtOnce: composedAtOnce, responder: composed, inputs: inputs)
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
        return try await route.responder(call, replies)
    }

    public func answerAtOnce(_ call: VarlinkCall) -> VarlinkPreparedReply? {
        routes[call.methodName]?.answerAtOnce?(call)
    }

    public func declares(method name: String) -> Bool {
        interface.methods[name] != nil
    }

    public func deadlineSeconds(forMethod name: String) -> Int? {
        routes[name]?.deadlineSeconds
    }
}
