/// Turns the bytes read from a terminal in raw mode into keys and query answers: UTF-8 text,
/// control characters, Alt with a character or Backspace (`ESC x` in one read), CSI and SS3
/// sequences (xterm, VT220 and rxvt spellings of the arrows, with Control or Alt as word motion,
/// Home/End, Page Up/Down, Delete, F1–F12), SGR mouse reports and the string answers APC, DCS and OSC.
///
/// Bytes that end in the middle of a sequence are kept for the next `feed`. A lone ESC is ambiguous
/// (the Escape key, or the start of a sequence whose rest is late): it is kept too, and the caller
/// calls `flushEscape()` when no byte followed within a short time (`escapeDelayMilliseconds`).
struct KeyDecoder: Sendable {
    /// How long a lone ESC waits for the rest of a sequence before it is the Escape key (as vim's
    /// `ttimeoutlen`; sequences arrive in one read in practice, over SSH too).
    static let escapeDelayMilliseconds = 25

    private var pending: [UInt8] = []

    /// Whether a lone ESC (or a sequence's start) waits for more bytes.
    var hasPending: Bool { !pending.isEmpty }

    /// Creates a decoder with nothing pending.
    init() {}

    /// The inputs `bytes` complete, in order.
    mutating func feed(_ bytes: [UInt8]) -> [TerminalInput] {
        pending += bytes
        var inputs: [TerminalInput] = []
        var index = 0
        while index < pending.count {
            guard let (input, length) = Self.decode(pending, at: index) else { break }
            if let input { inputs.append(input) }
            index += length
        }
        pending.removeFirst(index)
        return inputs
    }

    /// What is pending once no more bytes came: a lone ESC is the Escape key; an unfinished sequence
    /// is dropped (Escape, then its bytes as typed, would do things the user never asked for).
    mutating func flushEscape() -> [TerminalInput] {
        defer { pending = [] }
        return pending == [0x1B] ? [.key(.escape)] : []
    }

    /// The input at `index` and the bytes it took; `nil` when the bytes there are incomplete.
    /// An input of `nil` with a length means bytes to skip (an unknown sequence, bad UTF-8).
    private static func decode(_ bytes: [UInt8], at index: Int) -> (TerminalInput?, Int)? {
        let byte = bytes[index]
        switch byte {
        case 0x1B: return escape(bytes, at: index)
        case 0x0D, 0x0A: return (.key(.enter), 1)
        case 0x09: return (.key(.tab), 1)
        case 0x7F, 0x08: return (.key(.backspace), 1)
        case 0x00: return (nil, 1)
        case 0x01...0x1A: return (.key(.control(Character(Unicode.Scalar(byte + 0x60)))), 1)
        case 0x1C...0x1F: return (nil, 1)
        case 0x20...0x7E: return (.key(.character(Character(Unicode.Scalar(byte)))), 1)
        default: return utf8(bytes, at: index)
        }
    }

    private static func utf8(_ bytes: [UInt8], at index: Int) -> (TerminalInput?, Int)? {
        let byte = bytes[index]
        let length = byte >= 0xF0 && byte < 0xF8 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 0
        guard length > 0 else { return (nil, 1) }
        guard index + length <= bytes.count else { return nil }
        let slice = bytes[index..<index + length]
        guard slice.dropFirst().allSatisfy({ $0 & 0xC0 == 0x80 }),
              let text = String(validating: slice, as: UTF8.self), let character = text.first else { return (nil, 1) }
        return (.key(.character(character)), length)
    }

    private static func escape(_ bytes: [UInt8], at index: Int) -> (TerminalInput?, Int)? {
        guard index + 1 < bytes.count else { return nil }
        switch bytes[index + 1] {
        case UInt8(ascii: "["): return csi(bytes, at: index)
        case UInt8(ascii: "O"):
            guard index + 2 < bytes.count else { return nil }
            let key: Key? = switch bytes[index + 2] {
            case UInt8(ascii: "A"): .up
            case UInt8(ascii: "B"): .down
            case UInt8(ascii: "C"): .right
            case UInt8(ascii: "D"): .left
            case UInt8(ascii: "H"): .home
            case UInt8(ascii: "F"): .end
            case UInt8(ascii: "P")...UInt8(ascii: "S"): .function(Int(bytes[index + 2]) - Int(UInt8(ascii: "P")) + 1)
            default: nil
            }
            return (key.map { .key($0) }, 3)
        case UInt8(ascii: "_"), UInt8(ascii: "P"), UInt8(ascii: "]"):
            return string(bytes, at: index)
        case 0x1B:
            // Escape pressed twice, or Escape then a sequence: the first is the Escape key.
            return (.key(.escape), 1)
        case 0x7F, 0x08:
            return (.key(.altBackspace), 2)
        case 0x21...0x7E:
            // Escape and a character in the same read: the character typed with Alt (Meta), as
            // readline reads it; Escape typed, then a key, comes in two reads.
            return (.key(.alt(Character(Unicode.Scalar(bytes[index + 1])))), 2)
        default:
            return (.key(.escape), 1)
        }
    }

    /// `ESC [ params intermediates final`.
    private static func csi(_ bytes: [UInt8], at index: Int) -> (TerminalInput?, Int)? {
        var end = index + 2
        while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
        guard end < bytes.count else { return nil }
        let parameters = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
        let length = end - index + 1
        let number = Int(parameters.prefix { $0.isNumber }) ?? 0
        // `1;5D`: the second number is 1 + the modifiers (Shift 1, Alt 2, Control 4).
        let modifiers = parameters.split(separator: ";").dropFirst().first.flatMap { Int($0) }.map { $0 - 1 } ?? 0
        let word = modifiers & 0b110 != 0
        let key: Key?
        switch bytes[end] {
        case UInt8(ascii: "A"): key = .up
        case UInt8(ascii: "B"): key = .down
        case UInt8(ascii: "C"): key = word ? .wordRight : .right
        case UInt8(ascii: "D"): key = word ? .wordLeft : .left
        case UInt8(ascii: "M") where parameters.hasPrefix("<"), UInt8(ascii: "m") where parameters.hasPrefix("<"):
            return (MouseEvent.sgr(parameters: String(parameters.dropFirst()), final: bytes[end]).map { .mouse($0) }, length)
        case UInt8(ascii: "H"): key = .home
        case UInt8(ascii: "F"): key = .end
        case UInt8(ascii: "Z"): key = .backTab
        case UInt8(ascii: "c") where parameters.hasPrefix("?"):
            return (.reply(.deviceAttributes), length)
        case UInt8(ascii: "~"):
            switch number {
            case 1, 7: key = .home
            case 4, 8: key = .end
            case 3: key = .delete
            case 5: key = .pageUp
            case 6: key = .pageDown
            case 11...15: key = .function(number - 10)
            case 17...21: key = .function(number - 11)
            case 23, 24: key = .function(number - 12)
            default: key = nil
            }
        default: key = nil
        }
        return (key.map { .key($0) }, length)
    }

    /// APC, DCS and OSC strings, ended by ST (`ESC \`) or BEL.
    private static func string(_ bytes: [UInt8], at index: Int) -> (TerminalInput?, Int)? {
        var end = index + 2
        while end < bytes.count {
            if bytes[end] == 0x07 { break }
            if bytes[end] == 0x1B, end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: "\\") { break }
            if bytes[end] == 0x1B, end + 1 == bytes.count { return nil }
            end += 1
        }
        guard end < bytes.count else { return nil }
        let length = end - index + (bytes[end] == 0x07 ? 1 : 2)
        let body = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
        switch bytes[index + 1] {
        case UInt8(ascii: "_") where body.hasPrefix("G"):
            return (.reply(.kittyGraphics(ok: body.hasSuffix(";OK"))), length)
        case UInt8(ascii: "P") where body.hasPrefix(">|"):
            return (.reply(.terminalVersion(String(body.dropFirst(2)))), length)
        default:
            return (nil, length)
        }
    }
}
