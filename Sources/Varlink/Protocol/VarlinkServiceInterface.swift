/// The built-in `org.varlink.service` interface that every Varlink service provides.
///
/// See https://varlink.org/Service.
enum VarlinkServiceInterface {
    /// `org.varlink.service`.
    static let name = "org.varlink.service"

    /// The interface definition, served by `GetInterfaceDescription`.
    static let description = """
        # The Varlink Service Interface is provided by every varlink service. It
        # describes the service and the interfaces it implements.
        interface org.varlink.service

        # Get a list of all the interfaces a service provides and information
        # about the implementation.
        method GetInfo() -> (
          vendor: string,
          product: string,
          version: string,
          url: string,
          interfaces: []string
        )

        # Get the description of an interface that is implemented by this service.
        method GetInterfaceDescription(interface: string) -> (description: string)

        # The requested interface was not found.
        error InterfaceNotFound (interface: string)

        # The requested method was not found
        error MethodNotFound (method: string)

        # The interface defines the requested method, but the service does not
        # implement it.
        error MethodNotImplemented (method: string)

        # One of the passed parameters is invalid.
        error InvalidParameter (parameter: string)

        # Client is denied access
        error PermissionDenied ()

        # Method is expected to be called with 'more' set to true, but wasn't
        error ExpectedMore ()

        """

    /// Whether `method` is one of this interface's methods (`GetInfo`, `GetInterfaceDescription`).
    static func serves(_ method: String) -> Bool {
        method == "GetInfo" || method == "GetInterfaceDescription"
    }

    /// The reply to a call of this interface, answered by the server itself: `GetInfo` about the
    /// server (`interfaces` lists this one first, then `handlers`' in order) and
    /// `GetInterfaceDescription` of any interface it serves.
    static func reply(
        to call: VarlinkCall, configuration: VarlinkServerConfiguration, handlers: VarlinkServer.Handlers
    ) -> Result<[String: JSONValue], VarlinkError> {
        switch call.methodName {
        case "GetInfo":
            return .success([
                "vendor": .string(configuration.vendor),
                "product": .string(configuration.product),
                "version": .string(configuration.version),
                "url": .string(configuration.url),
                "interfaces": .array(([name] + handlers.names).map { .string($0) }),
            ])
        case "GetInterfaceDescription":
            guard let interface = call.parameter("interface")?.stringValue else {
                return .failure(.invalidParameter("interface"))
            }
            if interface == name { return .success(["description": .string(description)]) }
            guard let handler = handlers.byName[interface] else { return .failure(.interfaceNotFound(interface)) }
            return .success(["description": .string(handler.interfaceDescription)])
        default:
            return .failure(.methodNotFound(call.method))
        }
    }
}
