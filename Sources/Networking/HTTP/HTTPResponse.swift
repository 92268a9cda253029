import Foundation

/// An HTTP response: status, headers (looked up case-insensitively) and the raw body.
public struct HTTPResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var status: Int
    /// Response headers as received.
    public var headers: [String: String]
    /// The body bytes, unchanged.
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of header `name`, compared case-insensitively (`etag` finds `ETag`).
    public func header(_ name: String) -> String? {
        headers.first { Self.sameFieldName($0.key, name) }?.value
    }

    /// Whether two field names are the same, ASCII letters compared without case (RFC 9110 §5.1:
    /// "Field names are case-insensitive"; a name is a token, ASCII). Byte by byte, not with
    /// Foundation's locale-aware comparison, which every stored page's headers went through.
    static func sameFieldName(_ first: String, _ second: String) -> Bool {
        guard first.utf8.count == second.utf8.count else { return false }
        return zip(first.utf8, second.utf8).allSatisfy { asciiLowercase($0) == asciiLowercase($1) }
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200...299).contains(status) }

    /// `Retry-After` in whole seconds from now (`RetryAfter.seconds`).
    public var retryAfterSeconds: Int? { retryAfterSeconds(now: Date()) }

    /// `Retry-After` in whole seconds from `now` (`RetryAfter.seconds`).
    public func retryAfterSeconds(now: Date) -> Int? {
        header("Retry-After").flatMap { RetryAfter.seconds($0, now: now) }
    }

    /// `Age`: how long a cache in between held the answer, in seconds, when sent.
    public var ageSeconds: Int? {
        header("Age").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// `max-age` from `Cache-Control`, when present.
    public var maxAgeSeconds: Int? {
        guard let cacheControl = header("Cache-Control") else { return nil }
        for directive in cacheControl.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0].lowercased() == "max-age",
               let seconds = Int(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))), seconds >= 0 {
                return seconds
            }
        }
        return nil
    }
}
