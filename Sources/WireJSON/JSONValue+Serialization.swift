extension JSONValue {
    /// Compact JSON text: no whitespace, object keys sorted, strings escaped as `JSONEncoder` does,
    /// non-finite doubles written as `null`, ``raw(_:)`` bytes spliced verbatim.
    public func serialized() -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(64)
        serialize(into: &buffer)
        return buffer
    }

    /// Appends the compact JSON text of this value to `buffer` (see ``serialized()``).
    public func serialize(into buffer: inout [UInt8]) {
        var splices: [Splice] = []
        write(into: &buffer, splices: &splices, sharing: Int.max)
    }

    /// The compact JSON text of this value (see ``serialized()``) in pieces, to be written one
    /// after another (with `writev`): each ``raw(_:)`` value of at least `sharedMinimum` bytes is a
    /// piece of its own, the very array held by the value (shared, not copied); the text between
    /// them is copied into pieces of its own.
    public func serializedPieces(sharingRawOf sharedMinimum: Int) -> [[UInt8]] {
        var text: [UInt8] = []
        text.reserveCapacity(256)
        var splices: [Splice] = []
        write(into: &text, splices: &splices, sharing: sharedMinimum)
        guard !splices.isEmpty else { return [text] }
        var pieces: [[UInt8]] = []
        pieces.reserveCapacity(splices.count * 2 + 1)
        var start = 0
        for splice in splices {
            if splice.offset > start { pieces.append(Array(text[start..<splice.offset])) }
            pieces.append(splice.bytes)
            start = splice.offset
        }
        if start < text.count { pieces.append(Array(text[start...])) }
        return pieces
    }

    /// A raw value left out of the text, to be written at `offset`.
    private struct Splice {
        let offset: Int
        let bytes: [UInt8]
    }

    private func write(into buffer: inout [UInt8], splices: inout [Splice], sharing sharedMinimum: Int) {
        switch self {
        case .null:
            buffer.append(contentsOf: "null".utf8)
        case .bool(let value):
            buffer.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value):
            buffer.append(contentsOf: String(value).utf8)
        case .double(let value):
            if value.isFinite {
                buffer.append(contentsOf: value.description.utf8)
            } else {
                buffer.append(contentsOf: "null".utf8)
            }
        case .string(let value):
            Self.serializeString(value, into: &buffer)
        case .array(let elements):
            buffer.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                element.write(into: &buffer, splices: &splices, sharing: sharedMinimum)
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let members):
            buffer.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                Self.serializeString(key, into: &buffer)
                buffer.append(UInt8(ascii: ":"))
                members[key]?.write(into: &buffer, splices: &splices, sharing: sharedMinimum)
            }
            buffer.append(UInt8(ascii: "}"))
        case .raw(let bytes):
            if bytes.count >= sharedMinimum {
                splices.append(Splice(offset: buffer.count, bytes: bytes))
            } else {
                buffer.append(contentsOf: bytes)
            }
        }
    }

    /// A cheap estimate of this value's serialized size, to reserve buffer capacity (exact for
    /// raw bytes, close for plain strings, a guess for anything else).
    public var sizeHint: Int {
        switch self {
        case .raw(let bytes): return bytes.count
        case .string(let value): return value.utf8.count + 2
        default: return 16
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `string` as a JSON string literal, escaped as Foundation's `JSONEncoder` escapes it:
    /// `"` and `\`, `\b \t \n \f \r`, other control characters as `\u00xx`; `/`, DEL and
    /// non-ASCII text as they are. Runs that need no escape are copied at once.
    public static func serializeString(_ string: String, into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        var text = string
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                appendEscaped(byte, to: &buffer)
                runStart = index + 1
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        buffer.append(UInt8(ascii: "\""))
    }

    private static func appendEscaped(_ byte: UInt8, to buffer: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case 0x08: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
        case 0x09: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case 0x0A: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0C: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
        case 0x0D: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        default:
            buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            buffer.append(hexDigits[Int(byte >> 4)])
            buffer.append(hexDigits[Int(byte & 0x0F)])
        }
    }
}
