#if canImport(Glibc)
import Glibc
#endif

/// Reads a gzip file line by line with bounded memory: the file is read a piece at a time,
/// decoded as it goes, and each line (without its `\n`) handed to the caller; the file is never
/// held whole. A caller that must suspend between pieces (to store what it read) calls
/// `readPiece` in a loop; `forEachLine` reads it all.
///
/// Not `Sendable`: one owner reads it.
public final class GzipLineReader {
    /// The longest line accepted (longer ones are the sign of a damaged file).
    public static let maxLineLength = 64 * 1024

    private let path: String
    private let descriptor: Int32
    private let decoder: GzipDecoder
    private var pending: [UInt8] = []
    private var buffer: [UInt8]
    private var ended = false

    /// Opens the gzip file at `path`. Throws `GzipError` (`.io`, `.zlibUnavailable`).
    public init(path: String, readSize: Int = 256 * 1024) throws(GzipError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw GzipError(.io, "Cannot open \(path): \(String(cString: strerror(errno))).") }
        do {
            decoder = try GzipDecoder()
        } catch {
            close(descriptor)
            throw error
        }
        self.path = path
        self.descriptor = descriptor
        buffer = [UInt8](repeating: 0, count: max(4096, readSize))
    }

    deinit { close(descriptor) }

    /// Compressed bytes read so far.
    public var compressedBytes: Int { decoder.compressedBytes }

    /// Reads one piece of the file and calls `line` for each line it completes; at the end of the
    /// file, checks the gzip trailer and hands over a last line without `\n`. Returns `false` once
    /// the file is read. Throws `GzipError` (`.io`, `.corrupt`, `.truncated`) or what `line` throws.
    public func readPiece(_ line: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        guard !ended else { return false }
        var count = 0
        repeat {
            count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        } while count < 0 && errno == EINTR
        if count < 0 { throw GzipError(.io, "Cannot read \(path): \(String(cString: strerror(errno))).") }
        if count == 0 {
            ended = true
            try decoder.finish()
            if !pending.isEmpty { try pending.withUnsafeBytes { try line($0) } }
            pending = []
            return false
        }
        let limit = Self.maxLineLength, path = self.path
        try buffer.withUnsafeBytes { bytes in
            try decoder.feed(UnsafeRawBufferPointer(rebasing: bytes[0..<count])) { piece in
                var start = 0
                while let newline = piece[start...].firstIndex(of: 0x0A) {
                    if pending.isEmpty {
                        try line(UnsafeRawBufferPointer(rebasing: piece[start..<newline]))
                    } else {
                        pending.append(contentsOf: piece[start..<newline])
                        try pending.withUnsafeBytes { try line($0) }
                        pending.removeAll(keepingCapacity: true)
                    }
                    start = newline + 1
                }
                if start < piece.count {
                    pending.append(contentsOf: piece[start...])
                    if pending.count > limit {
                        throw GzipError(.corrupt, "A line of \(path) is longer than \(limit) bytes: the file is damaged.")
                    }
                }
            }
        }
        return true
    }

    /// Calls `line` for every line of the gzip file at `path`, in order.
    /// - Returns: the compressed bytes read.
    @discardableResult
    public static func forEachLine(inFile path: String, _ line: (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        let reader = try GzipLineReader(path: path)
        while try reader.readPiece(line) {}
        return reader.compressedBytes
    }
}
