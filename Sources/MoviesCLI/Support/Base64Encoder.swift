/// Encodes bytes as standard base64 with padding (RFC 4648 §4), as `Base64Decoder` reads it.
enum Base64Encoder {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The base64 text of `bytes`.
    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group: UInt32 = 0
            for offset in 0..<3 { group = group << 8 | UInt32(offset < count ? bytes[index + offset] : 0) }
            for position in 0..<4 {
                let sextet = Int(group >> UInt32(18 - 6 * position) & 0x3F)
                output.append(position <= count ? alphabet[sextet] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
