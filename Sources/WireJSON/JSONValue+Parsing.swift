extension JSONValue {
    /// The deepest nesting of arrays and objects ``parse(_:)`` accepts.
    public static let maximumNestingDepth = 128

    /// Parses one JSON text strictly per RFC 8259: no trailing commas, comments, leading zeros,
    /// lone surrogates or unescaped control characters; strings must be valid UTF-8; nesting
    /// deeper than ``maximumNestingDepth`` is rejected. Surrounding whitespace is allowed.
    @inlinable
    public static func parse<Bytes: Collection>(_ bytes: Bytes) throws(JSONParseError) -> JSONValue
    where Bytes.Element == UInt8 {
        // Inlinable, so that the caller's module specializes it: no generic dispatch per message.
        if let result = bytes.withContiguousStorageIfAvailable({ parse(buffer: $0) }) { return try result.get() }
        return try ContiguousArray(bytes).withUnsafeBufferPointer { parse(buffer: $0) }.get()
    }

    /// Parses one JSON text like ``parse(_:)`` and, when it is an object, hands each member to
    /// `member` in the order written (a repeated key each time) instead of building the object;
    /// returns `false`, having called `member` for none, when the text is another JSON value.
    /// For a reader that looks at a few known keys: no dictionary for the outer object.
    public static func parseMembers(
        _ bytes: UnsafeBufferPointer<UInt8>, _ member: (String, JSONValue) -> Void
    ) throws(JSONParseError) -> Bool {
        var parser = JSONParser(input: bytes)
        return try parser.parseDocumentMembers(listing: nil, member, listed: { _ in })
    }

    /// ``parseMembers(_:_:)``, except that a member named `key` whose value is an object goes to
    /// `listed` as its members in the order written (a repeated name each time), not as a
    /// dictionary: for a reader of a few small objects (a Varlink call's `parameters`), no hash
    /// table is built.
    public static func parseMembers(
        _ bytes: UnsafeBufferPointer<UInt8>, listing key: String,
        _ member: (String, JSONValue) -> Void, listed: ([JSONMember]) -> Void
    ) throws(JSONParseError) -> Bool {
        var parser = JSONParser(input: bytes)
        return try parser.parseDocumentMembers(listing: key, member, listed: listed)
    }

    /// ``parse(_:)`` over bytes in memory.
    @usableFromInline
    static func parse(buffer: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONParseError> {
        var parser = JSONParser(input: buffer)
        do throws(JSONParseError) {
            return .success(try parser.parseDocument())
        } catch {
            return .failure(error)
        }
    }
}

/// A recursive-descent JSON parser over a byte buffer that it does not own.
struct JSONParser {
    private let input: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var depth = 0

    init(input: UnsafeBufferPointer<UInt8>) {
        self.input = input
    }

    mutating func parseDocumentMembers(
        listing listedKey: String?, _ member: (String, JSONValue) -> Void, listed: ([JSONMember]) -> Void
    ) throws(JSONParseError) -> Bool {
        skipWhitespace()
        guard current == UInt8(ascii: "{") else {
            _ = try parseDocument()
            return false
        }
        try parseObject { parser, key throws(JSONParseError) in
            guard key == listedKey, parser.current == UInt8(ascii: "{") else {
                member(key, try parser.parseValue())
                return
            }
            var members: [JSONMember] = []
            members.reserveCapacity(4)
            try parser.parseObject { parser, key throws(JSONParseError) in members.append((key, try parser.parseValue())) }
            listed(members)
        }
        skipWhitespace()
        guard position == input.count else { throw failure("unexpected data after the value") }
        return true
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard position == input.count else { throw failure("unexpected data after the value") }
        return value
    }

    private func failure(_ reason: String) -> JSONParseError {
        JSONParseError(offset: position, reason: reason)
    }

    private var current: UInt8? { position < input.count ? input[position] : nil }

    private mutating func skipWhitespace() {
        while position < input.count {
            switch input[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func expectLiteral(_ literal: StaticString, value: JSONValue) throws(JSONParseError) -> JSONValue {
        let count = literal.utf8CodeUnitCount
        guard input.count - position >= count else { throw failure("truncated literal") }
        let matches = literal.withUTF8Buffer { expected in
            (0..<count).allSatisfy { input[position + $0] == expected[$0] }
        }
        guard matches else { throw failure("invalid literal") }
        position += count
        return value
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard let byte = current else { throw failure("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try expectLiteral("true", value: .bool(true))
        case UInt8(ascii: "f"): return try expectLiteral("false", value: .bool(false))
        case UInt8(ascii: "n"): return try expectLiteral("null", value: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw failure("unexpected character")
        }
    }

    private mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        guard depth <= JSONValue.maximumNestingDepth else { throw failure("nesting too deep") }
        position += 1
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        var members: [String: JSONValue] = [:]
        try parseObject { parser, key throws(JSONParseError) in
            let value = try parser.parseValue()
            // Room for a small object's members without growing the table twice on the way.
            if members.isEmpty { members.reserveCapacity(4) }
            members[key] = value
        }
        return .object(members)
    }

    /// Parses an object, handing each member's key to `member`, which parses its value (the
    /// parser stands on it).
    private mutating func parseObject(_ member: (inout JSONParser, String) throws(JSONParseError) -> Void) throws(JSONParseError) {
        try enterContainer()
        defer { depth -= 1 }
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            return
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':'") }
            position += 1
            skipWhitespace()
            try member(&self, key)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return
            default: throw failure("expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return .array(elements)
            default: throw failure("expected ',' or ']'")
            }
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        var isIntegral = true
        if current == UInt8(ascii: "-") { position += 1 }
        guard let first = current, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else {
            throw failure("expected a digit")
        }
        if first == UInt8(ascii: "0") {
            position += 1
        } else {
            skipDigits()
        }
        if current == UInt8(ascii: ".") {
            isIntegral = false
            position += 1
            guard try skipRequiredDigits() else { throw failure("expected a digit after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isIntegral = false
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard try skipRequiredDigits() else { throw failure("expected a digit in the exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<position]), as: UTF8.self)
        if isIntegral, let integer = Int64(text) { return .int(integer) }
        guard let double = Double(text), double.isFinite else { throw failure("number out of range") }
        return .double(double)
    }

    private mutating func skipDigits() {
        while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { position += 1 }
    }

    private mutating func skipRequiredDigits() throws(JSONParseError) -> Bool {
        let start = position
        skipDigits()
        return position > start
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        position += 1  // opening quote
        let start = position
        var hasEscapes = false
        var hasNonASCII = false
        while true {
            guard let byte = current else { throw failure("unterminated string") }
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 { throw failure("unescaped control character in string") }
            if byte >= 0x80 { hasNonASCII = true }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                position += 1
                guard current != nil else { throw failure("unterminated string") }
            }
            position += 1
        }
        let raw = UnsafeBufferPointer(rebasing: input[start..<position])
        position += 1  // closing quote
        if !hasEscapes {
            guard hasNonASCII else { return String(decoding: raw, as: UTF8.self) }
            guard let string = String(validating: raw, as: UTF8.self) else {
                throw JSONParseError(offset: start, reason: "invalid UTF-8 in string")
            }
            return string
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        try unescape(raw, from: start, into: &bytes)
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw JSONParseError(offset: start, reason: "invalid UTF-8 in string")
        }
        return string
    }

    private func unescape(_ raw: UnsafeBufferPointer<UInt8>, from base: Int, into bytes: inout [UInt8]) throws(JSONParseError) {
        var index = 0
        func fail(_ reason: String) -> JSONParseError { JSONParseError(offset: base + index, reason: reason) }
        func hexQuad(at offset: Int) throws(JSONParseError) -> UInt32 {
            guard offset + 4 <= raw.count else { throw fail("truncated \\u escape") }
            var value: UInt32 = 0
            for byte in raw[offset..<offset + 4] {
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw fail("invalid hex digit in \\u escape")
                }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\") else {
                bytes.append(byte)
                index += 1
                continue
            }
            let escaped = raw[index + 1]
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(escaped)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hexQuad(at: index + 2)
                index += 6
                if (0xD800...0xDBFF).contains(scalar) {
                    guard index + 1 < raw.count, raw[index] == UInt8(ascii: "\\"), raw[index + 1] == UInt8(ascii: "u") else {
                        throw fail("unpaired high surrogate")
                    }
                    let low = try hexQuad(at: index + 2)
                    guard (0xDC00...0xDFFF).contains(low) else { throw fail("unpaired high surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw fail("unpaired low surrogate")
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw fail("invalid \\u escape") }
                bytes.append(contentsOf: UTF8.encode(unicode).map { Array($0) } ?? [])
                continue
            default:
                throw fail("invalid escape")
            }
            index += 2
        }
    }
}
