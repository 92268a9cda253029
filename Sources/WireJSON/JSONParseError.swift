/// Why a byte sequence is not a valid JSON text (RFC 8259).
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The byte offset at which the input stopped making sense.
    public var offset: Int
    /// One human sentence saying what was wrong.
    public var reason: String

    /// Creates an error at `offset` with `reason`.
    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    /// "invalid JSON at byte N: reason".
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}
