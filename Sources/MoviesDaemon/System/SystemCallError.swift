import Glibc

/// A failed system call: which one, on what, and the `errno` it left.
public struct SystemCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The call that failed, e.g. `open`.
    public var call: String
    /// The `errno` value.
    public var code: Int32

    /// Creates an error from `call` and `code` (by default the current `errno`).
    public init(_ call: String, code: Int32 = errno) {
        self.call = call
        self.code = code
    }

    /// The C library's text for the error, e.g. "Permission denied".
    public var reason: String { String(cString: strerror(code)) }

    /// `call: reason`.
    public var description: String { "\(call): \(reason)" }
}
