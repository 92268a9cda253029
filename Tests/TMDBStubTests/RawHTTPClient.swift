import Foundation
import Glibc
import MoviesTestSupport

/// A response read by ``RawHTTPClient``.
struct RawHTTPResponse {
    var status: Int
    /// Header fields with lower-cased names.
    var headers: [String: String]
    var body: [UInt8]

    /// The body parsed as a JSON object, or nil.
    var jsonObject: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }
}

/// Why ``RawHTTPClient`` got no complete response.
enum RawHTTPError: Error, Equatable {
    case connectFailed(Int32)
    case timedOut
    case reset
    /// The connection closed before the announced Content-Length arrived.
    case truncated(expected: Int, received: Int)
    case closedWithoutResponse
    case malformedHead
}

/// A tiny blocking HTTP/1.1 client over a raw socket, so tests see exactly what the stub sends.
enum RawHTTPClient {
    /// Sends one request on a fresh connection (`Connection: close`) and reads the response.
    static func send(
        port: Int, method: String = "GET", target: String, headers: [String: String] = [:],
        body: [UInt8] = [], timeoutSeconds: Int = ProcessDeadline.replySeconds
    ) throws -> RawHTTPResponse {
        let fd = try connect(port: port, timeoutSeconds: timeoutSeconds)
        defer { close(fd) }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        let bytes = Array(head.utf8) + body
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return try readResponse(fd)
    }

    /// Opens a TCP connection to 127.0.0.1:`port` with a receive timeout.
    static func connect(port: Int, timeoutSeconds: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw RawHTTPError.connectFailed(code)
        }
        return fd
    }

    private static func readResponse(_ fd: Int32) throws -> RawHTTPResponse {
        var buffer: [UInt8] = []
        var headEnd: Int?
        var expected = 0
        while true {
            if headEnd == nil, let end = find(buffer) {
                headEnd = end
                expected = contentLength(String(decoding: buffer[0..<end], as: UTF8.self))
            }
            if let end = headEnd, buffer.count >= end + 4 + expected { break }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { throw RawHTTPError.timedOut }
                if errno == ECONNRESET { throw RawHTTPError.reset }
                throw RawHTTPError.closedWithoutResponse
            }
            if count == 0 {
                guard let end = headEnd else { throw RawHTTPError.closedWithoutResponse }
                throw RawHTTPError.truncated(expected: expected, received: buffer.count - end - 4)
            }
            buffer += chunk[0..<count]
        }
        guard let end = headEnd else { throw RawHTTPError.malformedHead }
        var lines = String(decoding: buffer[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines.removeFirst().split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw RawHTTPError.malformedHead }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return RawHTTPResponse(status: status, headers: headers, body: Array(buffer[(end + 4)..<(end + 4 + expected)]))
    }

    private static func find(_ buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        return (0...(buffer.count - 4)).first { buffer[$0] == 13 && buffer[$0 + 1] == 10 && buffer[$0 + 2] == 13 && buffer[$0 + 3] == 10 }
    }

    private static func contentLength(_ head: String) -> Int {
        for line in head.components(separatedBy: "\r\n") where line.lowercased().hasPrefix("content-length:") {
            return Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        return 0
    }
}
