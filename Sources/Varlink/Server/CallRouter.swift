/// Decides who answers a call: the built-in `org.varlink.service`, an interface handler,
/// or nobody (with the standard error).
struct CallRouter: Sendable {
    /// Where a call goes.
    enum Route {
        /// Answered at once with this reply (success parameters or error).
        case immediate(Result<[String: JSONValue], VarlinkError>)
        /// Handed to this handler.
        case handler(any VarlinkInterfaceHandler)
    }

    private let configuration: VarlinkServerConfiguration
    private let handlers: [String: (handler: any VarlinkInterfaceHandler, methods: InterfaceDescription)]
    private let interfaceNames: [String]

    init(configuration: VarlinkServerConfiguration, handlers: [any VarlinkInterfaceHandler]) {
        self.configuration = configuration
        var table: [String: (handler: any VarlinkInterfaceHandler, methods: InterfaceDescription)] = [:]
        var names = [VarlinkServiceInterface.name]
        for handler in handlers where table[handler.interfaceName] == nil && handler.interfaceName != VarlinkServiceInterface.name {
            table[handler.interfaceName] = (handler, InterfaceDescription(text: handler.interfaceDescription))
            names.append(handler.interfaceName)
        }
        self.handlers = table
        interfaceNames = names
    }

    func route(_ call: VarlinkCall, upgrade: Bool) -> Route {
        if call.interface == VarlinkServiceInterface.name {
            if upgrade { return .immediate(.failure(.invalidParameter("upgrade"))) }
            return .immediate(serviceReply(call))
        }
        guard let entry = handlers[call.interface] else {
            return .immediate(.failure(.interfaceNotFound(call.interface)))
        }
        guard entry.methods.methods[call.methodName] != nil else {
            return .immediate(.failure(.methodNotFound(call.method)))
        }
        if upgrade { return .immediate(.failure(.invalidParameter("upgrade"))) }
        return .handler(entry.handler)
    }

    private func serviceReply(_ call: VarlinkCall) -> Result<[String: JSONValue], VarlinkError> {
        switch call.methodName {
        case "GetInfo":
            return .success([
                "vendor": .string(configuration.vendor),
                "product": .string(configuration.product),
                "version": .string(configuration.version),
                "url": .string(configuration.url),
                "interfaces": .array(interfaceNames.map { .string($0) }),
            ])
        case "GetInterfaceDescription":
            guard let name = call.parameters["interface"]?.stringValue else {
                return .failure(.invalidParameter("interface"))
            }
            if name == VarlinkServiceInterface.name {
                return .success(["description": .string(VarlinkServiceInterface.description)])
            }
            guard let entry = handlers[name] else { return .failure(.interfaceNotFound(name)) }
            return .success(["description": .string(entry.handler.interfaceDescription)])
        default:
            return .failure(.methodNotFound(call.method))
        }
    }
}
