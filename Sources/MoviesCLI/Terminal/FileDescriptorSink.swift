import Glibc

/// A `TextSink` over a file descriptor, written with write(2) (retrying on EINTR and short writes).
final class FileDescriptorSink: TextSink {
    private let fileDescriptor: Int32

    /// Creates a sink writing to `fileDescriptor`.
    init(fileDescriptor: Int32) { self.fileDescriptor = fileDescriptor }

    func write(_ text: String) {
        FileDescriptorSink.writeAll(Array(text.utf8), to: fileDescriptor)
    }

    /// Writes all of `bytes` to `fileDescriptor`; returns false on an error other than EINTR.
    @discardableResult
    static func writeAll(_ bytes: [UInt8], to fileDescriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Glibc.write(fileDescriptor, buffer.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
