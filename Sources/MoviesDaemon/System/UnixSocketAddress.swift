import Glibc

/// A `sockaddr_un` for a file system path or a Linux abstract name (written `@name`), with the
/// exact address length each needs (unix(7)).
public struct UnixSocketAddress: Sendable, Hashable {
    /// The address as given: a path, or `@name` for the abstract namespace.
    public let name: String
    private let pathBytes: [UInt8]

    /// Parses `name`: a leading `@` becomes the abstract namespace's leading NUL byte.
    /// Returns nil when empty or too long for `sun_path` (108 bytes, including the terminating NUL
    /// for paths), or when a path contains a NUL byte.
    public init?(_ name: String) {
        let maximum = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        var bytes = Array(name.utf8)
        guard bytes.count > 1 || (bytes.count == 1 && bytes[0] != UInt8(ascii: "@")) else { return nil }
        if bytes[0] == UInt8(ascii: "@") {
            bytes[0] = 0
            guard bytes.count <= maximum else { return nil }
        } else {
            guard !bytes.contains(0), bytes.count < maximum else { return nil }
        }
        self.name = name
        self.pathBytes = bytes
    }

    /// Whether this is an abstract-namespace address.
    public var isAbstract: Bool { pathBytes.first == 0 }

    /// Calls `body` with the address and its length: `offsetof(sun_path) + path length + 1` for a
    /// path, and without a trailing NUL for an abstract name (which would otherwise become part of it).
    public func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Result) rethrows -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
        }
        let offset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path) ?? 2
        let length = offset + pathBytes.count + (isAbstract ? 0 : 1)
        return try withUnsafePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, socklen_t(length)) }
        }
    }
}
