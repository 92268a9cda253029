import Foundation

/// Adds `ETag` and `Cache-Control` to successful answers and turns a matching `If-None-Match` into 304.
enum CachingHeaders {
    /// `response` with caching headers, or a bodiless 304 when the client's validator matches.
    static func apply(to response: HTTPResponse, request: HTTPRequest, maxAge: Int) -> HTTPResponse {
        guard response.status == 200 else { return response }
        let etag = "\"" + hex(Checksums.fnv1a(response.body)) + "\""
        var answer = response
        answer.headers += [("ETag", etag), ("Cache-Control", "public, max-age=\(maxAge)")]
        if let validators = request.headers["if-none-match"], matches(validators, etag) {
            answer.status = 304
            answer.body = []
            answer.headers.removeAll { $0.0 == "Content-Type" }
        }
        return answer
    }

    private static func matches(_ validators: String, _ etag: String) -> Bool {
        validators.split(separator: ",").contains { candidate in
            var value = candidate.trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("W/") { value.removeFirst(2) }
            return value == etag || value == "*"
        }
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
