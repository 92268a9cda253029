import MoviesDomain
import Varlink

/// Reads typed call parameters, turning a missing or mistyped one into
/// `org.varlink.service.InvalidParameter` naming it. Which names a method takes is checked before,
/// against the interface file (`VarlinkRouter`).
struct ParameterReader {
    let call: VarlinkCall

    init(_ call: VarlinkCall) {
        self.call = call
    }

    func requiredString(_ name: String) throws(VarlinkError) -> String {
        guard let value = try optionalString(name) else { throw VarlinkError.invalidParameter(name) }
        return value
    }

    func optionalString(_ name: String) throws(VarlinkError) -> String? {
        guard let value = call.parameter(name), !value.isNull else { return nil }
        guard let string = value.stringValue else { throw VarlinkError.invalidParameter(name) }
        return string
    }

    func requiredInt(_ name: String) throws(VarlinkError) -> Int {
        guard let value = try optionalInt(name) else { throw VarlinkError.invalidParameter(name) }
        return value
    }

    func optionalInt(_ name: String) throws(VarlinkError) -> Int? {
        guard let value = call.parameter(name), !value.isNull else { return nil }
        guard let int = value.intValue, let narrowed = Int(exactly: int) else { throw VarlinkError.invalidParameter(name) }
        return narrowed
    }

    func optionalBool(_ name: String) throws(VarlinkError) -> Bool? {
        guard let value = call.parameter(name), !value.isNull else { return nil }
        guard let bool = value.boolValue else { throw VarlinkError.invalidParameter(name) }
        return bool
    }

    func optionalDouble(_ name: String) throws(VarlinkError) -> Double? {
        guard let value = call.parameter(name), !value.isNull else { return nil }
        guard let double = value.doubleValue, double.isFinite else { throw VarlinkError.invalidParameter(name) }
        return double
    }

    func policy(_ name: String = "policy") throws(VarlinkError) -> FetchPolicy {
        guard let raw = try optionalString(name) else { return .default }
        guard let policy = FetchPolicy(rawValue: raw) else { throw VarlinkError.invalidParameter(name) }
        return policy
    }
}
