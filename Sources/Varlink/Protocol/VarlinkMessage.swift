/// Encoding and decoding of Varlink messages: one JSON object each, terminated by a NUL byte
/// on the wire (the NUL is added and stripped by the transport, not here).
///
/// See https://varlink.org/Method-Call.
enum VarlinkMessage {
    /// A call as decoded from the wire.
    struct DecodedCall: Sendable {
        var call: VarlinkCall
        /// The caller asked to upgrade the connection to another protocol (always refused).
        var upgrade: Bool
    }

    /// Decodes a call message, or the error reply it deserves.
    static func decodeCall<Bytes: Collection>(_ bytes: Bytes) -> Result<DecodedCall, VarlinkError> where Bytes.Element == UInt8 {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            return .failure(.invalidParameter("message"))
        }
        guard case .object(let members) = value else { return .failure(.invalidParameter("message")) }
        guard let method = members["method"]?.stringValue, isValidMethodName(method) else {
            return .failure(.invalidParameter("method"))
        }
        var parameters: [String: JSONValue] = [:]
        switch members["parameters"] {
        case nil, .null?: break
        case .object(let object)?: parameters = object
        default: return .failure(.invalidParameter("parameters"))
        }
        var flags: [String: Bool] = [:]
        for flag in ["more", "oneway", "upgrade"] {
            switch members[flag] {
            case nil, .null?: flags[flag] = false
            case .bool(let set)?: flags[flag] = set
            default: return .failure(.invalidParameter(flag))
            }
        }
        let call = VarlinkCall(method: method, parameters: parameters, more: flags["more"] == true, oneway: flags["oneway"] == true)
        return .success(DecodedCall(call: call, upgrade: flags["upgrade"] == true))
    }

    /// Whether `method` looks like `reverse.domain.Interface.Method`.
    static func isValidMethodName(_ method: String) -> Bool {
        guard let dot = method.lastIndex(of: ".") else { return false }
        let interface = method[..<dot]
        let name = method[method.index(after: dot)...]
        guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first) else { return false }
        guard name.unicodeScalars.allSatisfy({ $0.isASCIIAlphanumeric }) else { return false }
        guard !interface.isEmpty, interface.contains(".") else { return false }
        return interface.unicodeScalars.allSatisfy { $0.isASCIIAlphanumeric || $0 == "." || $0 == "-" }
    }

    /// A (final or intermediate) successful reply.
    static func encodeReply(_ parameters: [String: JSONValue], continues: Bool) -> [UInt8] {
        var message: [String: JSONValue] = ["parameters": .object(parameters)]
        if continues { message["continues"] = .bool(true) }
        return JSONValue.object(message).serialized()
    }

    /// An error reply (always final).
    static func encodeError(_ error: VarlinkError) -> [UInt8] {
        JSONValue.object(["error": .string(error.name), "parameters": .object(error.parameters)]).serialized()
    }

    /// A call message as a client sends it.
    static func encodeCall(method: String, parameters: [String: JSONValue], more: Bool, oneway: Bool) -> [UInt8] {
        var message: [String: JSONValue] = ["method": .string(method), "parameters": .object(parameters)]
        if more { message["more"] = .bool(true) }
        if oneway { message["oneway"] = .bool(true) }
        return JSONValue.object(message).serialized()
    }

    /// Decodes a reply message; `nil` when it is not a valid reply.
    static func decodeReply<Bytes: Collection>(_ bytes: Bytes) -> VarlinkReply? where Bytes.Element == UInt8 {
        guard let value = try? JSONValue.parse(bytes), case .object(let members) = value else { return nil }
        let parameters: JSONValue
        switch members["parameters"] {
        case nil, .null?: parameters = .object([:])
        case .object(let object)?: parameters = .object(object)
        default: return nil
        }
        let error: String?
        switch members["error"] {
        case nil, .null?: error = nil
        case .string(let name)?: error = name
        default: return nil
        }
        return VarlinkReply(parameters: parameters, continues: members["continues"]?.boolValue == true, error: error)
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIIAlphanumeric: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self) || ("0"..."9").contains(self)
    }
}
