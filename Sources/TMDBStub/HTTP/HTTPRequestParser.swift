import Foundation

/// Parses an HTTP/1.1 request head and body out of bytes read from a connection.
enum HTTPRequestParser {
    /// Why a request could not be parsed.
    enum Failure: Error {
        /// The head exceeded the size limit (→ 431).
        case headTooLarge
        /// The request line or a header was malformed, or the body too large (→ 400).
        case malformed
    }

    /// The request at the start of `buffer` and the number of bytes it used, nil when more bytes are needed.
    static func parse(_ buffer: [UInt8], maxHeadBytes: Int, maxBodyBytes: Int) throws(Failure) -> (HTTPRequest, Int)? {
        guard let headEnd = endOfHead(in: buffer) else {
            if buffer.count > maxHeadBytes { throw .headTooLarge }
            return nil
        }
        if headEnd > maxHeadBytes { throw .headTooLarge }
        let head = String(decoding: buffer[0..<headEnd], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: true)
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else { throw .malformed }
        var headers: [String: String] = [:]
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw .malformed }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = value
        }
        let bodyStart = headEnd + 4
        let length = Int(headers["content-length"] ?? "0") ?? -1
        guard length >= 0, length <= maxBodyBytes else { throw .malformed }
        guard buffer.count >= bodyStart + length else { return nil }
        let request = HTTPRequest(
            method: String(requestLine[0]), target: String(requestLine[1]), version: String(requestLine[2]),
            headers: headers, body: Array(buffer[bodyStart..<(bodyStart + length)])
        )
        return (request, bodyStart + length)
    }

    private static func endOfHead(in buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }
}
