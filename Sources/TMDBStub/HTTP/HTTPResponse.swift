/// One HTTP response the stub sends.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields in sending order (Content-Length and Connection are added when serialized).
    public var headers: [(String, String)]
    /// The body.
    public var body: [UInt8]
    /// When set, the Content-Length announced instead of `body.count` (the truncated-body fault).
    public var announcedLength: Int?

    /// A response with the given parts.
    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response with `Content-Type: application/json;charset=utf-8`.
    public static func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json;charset=utf-8")], body: value.serialized())
    }

    /// TMDB's error envelope `{"status_code":…,"status_message":…,"success":false}`.
    public static func tmdbError(status: Int, code: Int, message: String) -> HTTPResponse {
        json(.object([("status_code", .int(code)), ("status_message", .string(message)), ("success", .bool(false))]), status: status)
    }

    /// TMDB's answer to a successful write: `{"success":true,"status_code":…,"status_message":…}`.
    public static func tmdbSuccess(status: Int, code: Int, message: String) -> HTTPResponse {
        json(.object([("success", .bool(true)), ("status_code", .int(code)), ("status_message", .string(message))]), status: status)
    }

    /// The value of header `name` (case-insensitive), if present.
    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// The bytes on the wire: status line, headers, Content-Length, Connection and body.
    public func serialized(keepAlive: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reason(for: status))\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if status != 304 { head += "Content-Length: \(announcedLength ?? body.count)\r\n" }
        head += "Connection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
        return Array(head.utf8) + (status == 304 ? [] : body)
    }

    static func reason(for status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 422: "Unprocessable Entity"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}
