import Glibc

/// Writes bytes to a file path (created with mode 0644, truncated) or, for `-`, to standard output.
enum FileOutput {
    /// Writes `bytes` to `path`; returns `nil` on success or the reason it failed.
    static func write(_ bytes: [UInt8], to path: String) -> String? {
        if path == "-" {
            return FileDescriptorSink.writeAll(bytes, to: STDOUT_FILENO) ? nil : "cannot write to standard output: \(errorText())"
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return "cannot open \(path): \(errorText())" }
        let written = FileDescriptorSink.writeAll(bytes, to: descriptor)
        let reason = written ? nil : "cannot write \(path): \(errorText())"
        if close(descriptor) != 0, reason == nil { return "cannot write \(path): \(errorText())" }
        return reason
    }

    private static func errorText() -> String {
        strerror(errno).map { String(cString: $0) } ?? "error \(errno)"
    }
}
