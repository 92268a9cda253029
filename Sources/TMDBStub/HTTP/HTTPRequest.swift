/// One parsed HTTP/1.1 request.
public struct HTTPRequest: Sendable {
    /// The method, e.g. `GET`.
    public var method: String
    /// The request target as sent (`/3/search/movie?query=x`).
    public var target: String
    /// The protocol version, e.g. `HTTP/1.1`.
    public var version: String
    /// Header fields with lower-cased names (a repeated field keeps its last value).
    public var headers: [String: String]
    /// The body (Content-Length bytes).
    public var body: [UInt8]

    /// A request with the given parts (`headers` keyed by lower-cased name).
    public init(method: String, target: String, version: String = "HTTP/1.1", headers: [String: String] = [:], body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// The percent-decoded path, without the query.
    public var path: String {
        let raw = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? target
        return Self.percentDecode(raw, plusIsSpace: false)
    }

    /// The query parameters, percent-decoded (`+` as space); a repeated name keeps its first value.
    public var query: [String: String] {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return [:] }
        var result: [String: String] = [:]
        for pair in parts[1].split(separator: "&") {
            let nameValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.percentDecode(String(nameValue[0]), plusIsSpace: true)
            let value = nameValue.count > 1 ? Self.percentDecode(String(nameValue[1]), plusIsSpace: true) : ""
            if result[name] == nil { result[name] = value }
        }
        return result
    }

    /// Whether the client asked to keep the connection open after this request.
    public var wantsKeepAlive: Bool {
        let connection = headers["connection"]?.lowercased() ?? ""
        if connection.contains("close") { return false }
        if version == "HTTP/1.0" { return connection.contains("keep-alive") }
        return true
    }

    /// Decodes `%XX` escapes (and `+` when `plusIsSpace`); invalid escapes are kept literally.
    static func percentDecode(_ text: String, plusIsSpace: Bool) -> String {
        var bytes: [UInt8] = []
        let source = Array(text.utf8)
        var index = 0
        while index < source.count {
            let byte = source[index]
            if byte == UInt8(ascii: "%"), index + 2 < source.count,
               let high = hexValue(source[index + 1]), let low = hexValue(source[index + 2]) {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
