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

    /// The members of a call that are read, in the order their errors take precedence.
    private static let callMembers = ["method", "parameters", "more", "oneway", "upgrade"]

    /// Decodes a call message, or the error reply it deserves.
    static func decodeCall<Bytes: Collection>(_ bytes: Bytes) -> Result<DecodedCall, VarlinkError> where Bytes.Element == UInt8 {
        // One pass over the message's members, as they are parsed: no dictionary, no lookup per
        // key. Of several bad members, the error names the first in this order, whatever the
        // order of the message.
        let order = callMembers
        var invalid = order.count
        var method: String?
        var parameters: [JSONMember] = []
        var flags = (more: false, oneway: false, upgrade: false)
        func member(_ key: String, _ value: JSONValue) {
            switch key {
            case "method":
                if let name = value.stringValue, isValidMethodName(name) { method = name } else { invalid = 0 }
            case "parameters":
                // An object's members arrive through `listed`, as a list.
                if case .null = value { parameters = [] } else { invalid = min(invalid, 1) }
            case "more", "oneway", "upgrade":
                let set: Bool
                switch value {
                case .null: set = false
                case .bool(let flag): set = flag
                default:
                    invalid = min(invalid, order.firstIndex(of: key) ?? invalid)
                    return
                }
                switch key {
                case "more": flags.more = set
                case "oneway": flags.oneway = set
                default: flags.upgrade = set
                }
            default: break
            }
        }
        func listed(_ members: [JSONMember]) { parameters = members }
        func parse(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<Bool, JSONParseError> {
            do throws(JSONParseError) {
                return .success(try JSONValue.parseMembers(buffer, listing: "parameters", member, listed: listed))
            } catch {
                return .failure(error)
            }
        }
        switch bytes.withContiguousStorageIfAvailable(parse) ?? Array(bytes).withUnsafeBufferPointer(parse) {
        case .success(true): break
        case .success(false), .failure: return .failure(.invalidParameter("message"))
        }
        if method == nil { invalid = 0 }
        guard invalid == order.count, let method else { return .failure(.invalidParameter(order[invalid])) }
        let call = VarlinkCall(method: method, parameterList: parameters, more: flags.more, oneway: flags.oneway)
        return .success(DecodedCall(call: call, upgrade: flags.upgrade))
    }

    /// Whether `method` looks like `reverse.domain.Interface.Method`.
    static func isValidMethodName(_ method: String) -> Bool {
        // On the UTF-8 bytes: every accepted character is ASCII, and a byte of a multi-byte
        // character is never an ASCII letter, digit, '.' or '-'.
        method.utf8.withContiguousStorageIfAvailable(isValidMethodName(bytes:))
            ?? isValidMethodName(bytes: Array(method.utf8))
    }

    private static func isValidMethodName<Bytes: BidirectionalCollection>(bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")) else { return false }
        let interface = bytes[..<dot]
        let name = bytes[bytes.index(after: dot)...]
        guard let first = name.first, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) else { return false }
        guard name.allSatisfy(isASCIIAlphanumeric) else { return false }
        guard !interface.isEmpty, interface.contains(UInt8(ascii: ".")) else { return false }
        return interface.allSatisfy { isASCIIAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
    }

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// A reply (the final one, or with `continues` one of a `more` call's), in pieces: large raw
    /// values (a cached page's stored bytes) are pieces of their own, shared and not copied
    /// (``OutputQueue`` writes them as they are, and ends the message with its NUL).
    static func encodeReplyPieces(_ parameters: [String: JSONValue], continues: Bool) -> [[UInt8]] {
        var message: [String: JSONValue] = ["parameters": .object(parameters)]
        if continues { message["continues"] = .bool(true) }
        return JSONValue.object(message).serializedPieces(sharingRawOf: OutputQueue.sharedMinimum)
    }

    /// A reply as one byte array (the pieces joined), for clients and tests.
    static func encodeReply(_ parameters: [String: JSONValue], continues: Bool) -> [UInt8] {
        Array(encodeReplyPieces(parameters, continues: continues).joined())
    }

    /// A reply whose small members `write` appends as JSON text (`"name":value`, comma-separated,
    /// in name order) straight into the message, followed by the member `name` with the JSON text
    /// `json` (sorting after them), shared and not copied when large: the bytes
    /// ``encodeReplyPieces(_:continues:)`` writes for the same members as raw values, with no
    /// buffer per small member.
    static func encodeReplyPieces(
        continues: Bool, writingMembers write: (inout [UInt8]) -> Void, thenMember name: String, json: [UInt8]
    ) -> [[UInt8]] {
        var text: [UInt8] = []
        text.reserveCapacity(192)
        text.append(contentsOf: (continues ? #"{"continues":true,"parameters":{"# : #"{"parameters":{"#).utf8)
        let start = text.count
        write(&text)
        if text.count > start { text.append(UInt8(ascii: ",")) }
        JSONValue.serializeString(name, into: &text)
        text.append(UInt8(ascii: ":"))
        guard json.count < OutputQueue.sharedMinimum else { return [text, json, replyEnd] }
        text.append(contentsOf: json)
        text.append(contentsOf: replyEnd)
        return [text]
    }

    /// What ends a reply's parameters and the reply.
    private static let replyEnd: [UInt8] = Array("}}".utf8)

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

