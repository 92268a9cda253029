import Glibc

/// Writes a file so that a reader sees the old contents or the new, never a part: the bytes go to
/// a hidden temporary file in the same directory, which is flushed to disk (`fsync`), made readable
/// by everyone (0644, whatever the umask: node_exporter runs as its own user), renamed over the
/// file, and the directory is flushed so the rename survives a power cut. What node_exporter's
/// textfile collector asks of the files it reads
/// (https://github.com/prometheus/node_exporter#textfile-collector).
enum AtomicFileWriter {
    /// Writes `bytes` to `path`; returns `nil` on success or the reason it failed (the temporary
    /// file is removed then, and `path` is left as it was).
    static func write(_ bytes: [UInt8], to path: String) -> String? {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty else { return "\(path) names a directory, not a file" }
        // Hidden and without the final name's extension: a collector reading `*.prom` skips it.
        let temporary = (directory == "/" ? "" : directory) + "/.\(name).\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        // Errors name the file asked for: the temporary name means nothing to the user.
        guard descriptor >= 0 else { return "cannot write \(path): \(errorText()) (creating a temporary file in \(directory))" }
        var failure: String?
        if !FileDescriptorSink.writeAll(bytes, to: descriptor) {
            failure = "cannot write \(path): \(errorText())"
        } else if fchmod(descriptor, 0o644) != 0 {
            failure = "cannot make \(path) readable: \(errorText())"
        } else if fsync(descriptor) != 0 {
            failure = "cannot flush \(path) to disk: \(errorText())"
        }
        if close(descriptor) != 0, failure == nil { failure = "cannot write \(path): \(errorText())" }
        if failure == nil, rename(temporary, path) != 0 { failure = "cannot write \(path): \(errorText()) (renaming its temporary file over it)" }
        if let failure {
            unlink(temporary)
            return failure
        }
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            defer { close(directoryDescriptor) }
            if fsync(directoryDescriptor) != 0 { return "cannot flush the directory \(directory) to disk: \(errorText())" }
        }
        return nil
    }

    private static func errorText() -> String {
        strerror(errno).map { String(cString: $0) } ?? "error \(errno)"
    }
}
