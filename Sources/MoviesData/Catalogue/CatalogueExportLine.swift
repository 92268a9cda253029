/// Reads one line of the export (one JSON object) without building a JSON tree: the scanner knows
/// the five members it needs and skips any other, so a member TMDB adds later does no harm.
///
/// Strings are JSON strings (escapes, `\u` with surrogate pairs); numbers are JSON numbers.
/// `nil` for a line that is not such an object or has no positive `id` or no `original_title`.
public enum CatalogueExportLine {
    /// The entry on `line`, or `nil` when it cannot be read.
    public static func parse(_ line: UnsafeRawBufferPointer) -> CatalogueExportEntry? {
        var scanner = Scanner(bytes: line)
        return scanner.object()
    }

    /// The entry on `line` (a convenience for tests and the stub).
    public static func parse(_ line: String) -> CatalogueExportEntry? {
        var copy = line
        return copy.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func object() -> CatalogueExportEntry? {
            skipSpace()
            guard take(0x7B) else { return nil }  // {
            var id: Int?
            var title: String?
            var popularity = 0.0
            var adult = false
            var video = false
            skipSpace()
            if take(0x7D) { return nil }
            while true {
                skipSpace()
                guard let key = string() else { return nil }
                skipSpace()
                guard take(0x3A) else { return nil }  // :
                skipSpace()
                switch key {
                case "id":
                    guard let number = number(), number >= 1, number < 1e15, number == number.rounded() else { return nil }
                    id = Int(number)
                case "original_title":
                    if peek == 0x6E { guard literal("null") else { return nil } } else {
                        guard let text = string() else { return nil }
                        title = text
                    }
                case "popularity":
                    if peek == 0x6E { guard literal("null") else { return nil } } else {
                        guard let number = number(), number.isFinite else { return nil }
                        popularity = max(0, number)
                    }
                case "adult":
                    guard let flag = boolean() else { return nil }
                    adult = flag
                case "video":
                    guard let flag = boolean() else { return nil }
                    video = flag
                default:
                    guard skipValue(depth: 0) else { return nil }
                }
                skipSpace()
                if take(0x2C) { continue }  // ,
                guard take(0x7D) else { return nil }  // }
                break
            }
            skipSpace()
            guard index == bytes.count, let id, let title else { return nil }
            return CatalogueExportEntry(id: id, originalTitle: title, popularity: popularity, adult: adult, video: video)
        }

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            index += 1
            return true
        }

        mutating func skipSpace() {
            while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A { index += 1 }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += count
            return true
        }

        mutating func boolean() -> Bool? {
            if literal("true") { return true }
            if literal("false") { return false }
            if literal("null") { return false }
            return nil
        }

        mutating func number() -> Double? {
            let start = index
            while let byte = peek, (0x30...0x39).contains(byte) || byte == 0x2D || byte == 0x2B || byte == 0x2E || byte == 0x65 || byte == 0x45 {
                index += 1
            }
            guard index > start else { return nil }
            // Fast path: a plain integer or decimal, the export's only shapes.
            var value = 0.0
            var scale = 0.0
            var negative = false
            var plain = true
            for offset in start..<index {
                let byte = bytes[offset]
                switch byte {
                case 0x2D where offset == start: negative = true
                case 0x30...0x39:
                    let digit = Double(byte - 0x30)
                    if scale == 0 { value = value * 10 + digit } else { value += digit * scale; scale /= 10 }
                case 0x2E where scale == 0: scale = 0.1
                default: plain = false
                }
                if !plain { break }
            }
            if plain { return negative ? -value : value }
            return Double(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
        }

        mutating func string() -> String? {
            guard take(0x22) else { return nil }
            let start = index
            // Fast path: no escapes.
            while let byte = peek, byte != 0x22, byte != 0x5C {
                guard byte >= 0x20 else { return nil }
                index += 1
            }
            guard let stop = peek else { return nil }
            if stop == 0x22 {
                index += 1
                return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index - 1]), as: UTF8.self)
            }
            var scalars = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
            while let byte = peek {
                index += 1
                switch byte {
                case 0x22:
                    return String(decoding: scalars, as: UTF8.self)
                case 0x5C:
                    guard let escaped = peek else { return nil }
                    index += 1
                    switch escaped {
                    case 0x22, 0x5C, 0x2F: scalars.append(escaped)
                    case 0x62: scalars.append(0x08)
                    case 0x66: scalars.append(0x0C)
                    case 0x6E: scalars.append(0x0A)
                    case 0x72: scalars.append(0x0D)
                    case 0x74: scalars.append(0x09)
                    case 0x75:
                        guard var code = hex4() else { return nil }
                        if (0xD800...0xDBFF).contains(code) {
                            guard literal("\\u"), let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(code) else { return nil }
                        scalars.append(contentsOf: String(Character(scalar)).utf8)
                    default: return nil
                    }
                default:
                    guard byte >= 0x20 else { return nil }
                    scalars.append(byte)
                }
            }
            return nil
        }

        mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case 0x30...0x39: digit = byte - 0x30
                case 0x41...0x46: digit = byte - 0x41 + 10
                case 0x61...0x66: digit = byte - 0x61 + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        /// Skips any JSON value (for members the catalogue does not keep).
        mutating func skipValue(depth: Int) -> Bool {
            guard depth < 32, let byte = peek else { return false }
            switch byte {
            case 0x22: return string() != nil
            case 0x74, 0x66, 0x6E: return boolean() != nil
            case 0x7B, 0x5B:
                let close: UInt8 = byte == 0x7B ? 0x7D : 0x5D
                index += 1
                skipSpace()
                if take(close) { return true }
                while true {
                    skipSpace()
                    if byte == 0x7B {
                        guard string() != nil else { return false }
                        skipSpace()
                        guard take(0x3A) else { return false }
                        skipSpace()
                    }
                    guard skipValue(depth: depth + 1) else { return false }
                    skipSpace()
                    if take(0x2C) { continue }
                    return take(close)
                }
            default: return number() != nil
            }
        }
    }
}
