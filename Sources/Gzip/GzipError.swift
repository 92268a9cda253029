/// Why a gzip stream could not be read or written, with a stable code and one sentence.
public struct GzipError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable machine code of a failure.
    public enum Code: String, Sendable {
        /// libz.so.1 could not be loaded or lacks a function.
        case zlibUnavailable = "zlib_unavailable"
        /// The bytes are not gzip, or fail its checks (a damaged download).
        case corrupt
        /// The stream ends before the gzip trailer (a cut-off download).
        case truncated
        /// The file could not be opened, read or written.
        case io
    }

    /// What went wrong.
    public let code: Code
    /// One human sentence.
    public let description: String

    /// A failure of kind `code`, said by `description`.
    public init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }
}
