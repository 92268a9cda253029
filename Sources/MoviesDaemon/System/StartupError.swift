/// Why the daemon cannot start: one line that names the file, path or setting at fault, and the
/// sysexits code to exit with.
public struct StartupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The one-line message, starting with `moviesd: `.
    public var message: String
    /// The process exit code (sysexits).
    public var exitCode: Int32

    /// Creates an error with a one-line `message`.
    public init(_ message: String, exitCode: Int32) {
        self.message = message
        self.exitCode = exitCode
    }

    /// The message.
    public var description: String { message }

    /// `EX_USAGE`: bad command line.
    public static let usageExitCode: Int32 = 64
    /// `EX_UNAVAILABLE`: another instance holds the database or socket.
    public static let unavailableExitCode: Int32 = 69
    /// `EX_OSERR`: a system call failed.
    public static let systemExitCode: Int32 = 71
    /// `EX_CANTCREAT`: a path cannot be created or written.
    public static let cannotCreateExitCode: Int32 = 73
    /// `EX_NOPERM`: a credential file cannot be read.
    public static let permissionExitCode: Int32 = 77
    /// `EX_CONFIG`: a bad setting.
    public static let configurationExitCode: Int32 = 78
}
