/// Strict percent-encoding for query names and values: only RFC 3986 unreserved characters pass,
/// so `+`, `&`, `=` and spaces in a search query reach the server as data.
public enum QueryEncoding {
    /// `value` percent-encoded as UTF-8 (uppercase hex), unreserved characters kept.
    public static func percentEncode(_ value: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hex = Array("0123456789ABCDEF".utf8)

    /// RFC 3986's unreserved characters: ALPHA / DIGIT / "-" / "." / "_" / "~".
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// `name=value&…` in the given order, each part percent-encoded.
    public static func query(_ items: [(name: String, value: String)]) -> String {
        items.map { "\(percentEncode($0.name))=\(percentEncode($0.value))" }.joined(separator: "&")
    }
}
