/// A Varlink error reply: a fully qualified error name and its parameters.
///
/// See https://varlink.org/Service for the standard `org.varlink.service` errors.
public struct VarlinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The fully qualified error name, e.g. `org.varlink.service.InvalidParameter`.
    public var name: String
    /// The error's parameters.
    public var parameters: [String: JSONValue]

    /// Creates an error reply named `name` with `parameters`.
    public init(name: String, parameters: [String: JSONValue] = [:]) {
        self.name = name
        self.parameters = parameters
    }

    /// The error name and its parameters as JSON.
    public var description: String {
        "\(name) \(String(decoding: JSONValue.object(parameters).serialized(), as: UTF8.self))"
    }

    /// `org.varlink.service.InvalidParameter {parameter}`: one of the passed parameters is invalid.
    public static func invalidParameter(_ parameter: String) -> VarlinkError {
        VarlinkError(name: "org.varlink.service.InvalidParameter", parameters: ["parameter": .string(parameter)])
    }

    /// `org.varlink.service.MethodNotFound {method}`: the interface declares no such method.
    public static func methodNotFound(_ method: String) -> VarlinkError {
        VarlinkError(name: "org.varlink.service.MethodNotFound", parameters: ["method": .string(method)])
    }

    /// `org.varlink.service.MethodNotImplemented {method}`: declared, but this service does not implement it.
    public static func methodNotImplemented(_ method: String) -> VarlinkError {
        VarlinkError(name: "org.varlink.service.MethodNotImplemented", parameters: ["method": .string(method)])
    }

    /// `org.varlink.service.InterfaceNotFound {interface}`: this service has no such interface.
    public static func interfaceNotFound(_ interface: String) -> VarlinkError {
        VarlinkError(name: "org.varlink.service.InterfaceNotFound", parameters: ["interface": .string(interface)])
    }

    /// `org.varlink.service.PermissionDenied`: the caller may not call this method.
    public static let permissionDenied = VarlinkError(name: "org.varlink.service.PermissionDenied")

    /// `org.varlink.service.ExpectedMore`: the method must be called with `more: true`.
    public static let expectedMore = VarlinkError(name: "org.varlink.service.ExpectedMore")
}
