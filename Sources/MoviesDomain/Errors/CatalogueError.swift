/// Why the catalogue could not be updated, with a stable code and one sentence. The catalogue
/// imported before is whole whatever the failure.
public struct CatalogueError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable machine code of a failure.
    public enum Code: String, Sendable {
        /// No export of the days tried could be had (404 for each).
        case exportNotFound = "export_not_found"
        /// The download failed (the network, the server, a 5xx).
        case downloadFailed = "download_failed"
        /// The file is not valid gzip, or fails its checks.
        case corrupt
        /// The file ends early (a cut-off download).
        case truncated
        /// The export holds no title, or too few lines could be read.
        case unusable
        /// The disk (or the catalogue's size limit) is full.
        case diskFull = "disk_full"
        /// The catalogue's database failed otherwise.
        case storage
        /// zlib (libz.so.1) could not be loaded.
        case zlibUnavailable = "zlib_unavailable"
    }

    /// What went wrong.
    public let code: Code
    /// One human sentence (never a credential).
    public let description: String

    /// A failure of kind `code`, said by `description`.
    public init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }
}
