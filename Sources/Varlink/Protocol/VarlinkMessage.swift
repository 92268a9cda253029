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
        // key. What the members say is gathered in one value the parser's callbacks reach through
        // a pointer, so that nothing they would capture is boxed on the heap.
        var read = CallMembers()
        let parsed = withUnsafeMutablePointer(to: &read) { read in
            bytes.withContiguousStorageIfAvailable { read.pointee.parse($0) } ?? Array(bytes).withUnsafeBufferPointer { read.pointee.parse($0) }
        }
        guard parsed else { return .failure(.invalidParameter("message")) }
        return read.call
    }

    /// The members of a call message as they are parsed. Of several bad members, the error names
    /// the first in ``callMembers``' order, whatever the order of the message.
    private struct CallMembers {
        var invalid = callMembers.count
        var method: String?
        var parameters: [JSONMember] = []
        var more = false
        var oneway = false
        var upgrade = false

        /// Parses `buffer`; false when it is no JSON object.
        mutating func parse(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
            do throws(JSONParseError) {
                return try JSONValue.parseMembers(buffer, listing: "parameters", { member($0, $1) }, listed: { parameters = $0 })
            } catch {
                return false
            }
        }

        mutating func member(_ key: String, _ value: JSONValue) {
            switch key {
            case "method":
                if let name = value.stringValue, isValidMethodName(name) { method = name } else { invalid = 0 }
            case "parameters":
                // An object's members arrive through `listed`, as a list.
                if case .null = value { parameters = [] } else { invalid = min(invalid, 1) }
            case "more": more = flag(value, position: 2) ?? more
            case "oneway": oneway = flag(value, position: 3) ?? oneway
            case "upgrade": upgrade = flag(value, position: 4) ?? upgrade
            default: break
            }
        }

        /// A flag's value (`null` is false), or `nil` after noting the member at `position` as bad.
        private mutating func flag(_ value: JSONValue, position: Int) -> Bool? {
            switch value {
            case .null: return false
            case .bool(let set): return set
            default:
                invalid = min(invalid, position)
                return nil
            }
        }

        /// The call, or the error naming its first bad member.
        var call: Result<DecodedCall, VarlinkError> {
            guard invalid == callMembers.count, let method else { return .failure(.invalidParameter(callMembers[method == nil ? 0 : invalid])) }
            return .success(DecodedCall(call: VarlinkCall(method: method, parameterList: parameters, more: more, oneway: oneway), upgrade: upgrade))
        }
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

