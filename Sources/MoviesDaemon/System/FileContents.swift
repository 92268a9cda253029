import Glibc

/// Reads small text files (configuration, credentials) with the system call's own error.
public enum FileContents {
    /// The file at `path` decoded as UTF-8 (invalid sequences repaired), at most `limit` bytes.
    public static func readText(atPath path: String, limit: Int = 1 << 20) throws(SystemCallError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemCallError("open") }
        return try readText(descriptor: descriptor, limit: limit)
    }

    /// The rest of the open file `descriptor` decoded as UTF-8, at most `limit` bytes; closes it.
    public static func readText(descriptor: Int32, limit: Int = 1 << 20) throws(SystemCallError) -> String {
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemCallError("read")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        guard bytes.count <= limit else { throw SystemCallError("read", code: EFBIG) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
