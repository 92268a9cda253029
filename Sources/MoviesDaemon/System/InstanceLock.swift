import Foundation
import Glibc

/// An exclusive `flock(2)` on `<database>.lock`, held for the process lifetime, so a second daemon
/// on the same database refuses to start.
///
/// The lock file holds the owner's pid, so the refusal can say who holds it. The lock is released
/// when this object is deinitialized or the process exits.
public final class InstanceLock: Sendable {
    /// The lock file's path.
    public let path: String
    private let descriptor: Int32

    /// Takes the lock for `databasePath`, writing `pid` into the lock file.
    /// - Throws: ``StartupError`` "another moviesd is already using PATH (pid N)" when held, or one
    ///   naming the lock file when it cannot be opened.
    public init(databasePath: String, pid: Int32 = getpid()) throws(StartupError) {
        let path = databasePath + ".lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let error = SystemCallError("open")
            throw StartupError("moviesd: \(path): cannot open lock file: \(error.reason)", exitCode: StartupError.cannotCreateExitCode)
        }
        var status: Int32
        repeat {
            status = flock(descriptor, LOCK_EX | LOCK_NB)
        } while status != 0 && errno == EINTR
        guard status == 0 else {
            let error = SystemCallError("flock")
            let holder = Self.readPID(descriptor)
            close(descriptor)
            if error.code == EWOULDBLOCK {
                let who = holder.map { " (pid \($0))" } ?? ""
                throw StartupError("moviesd: another moviesd is already using \(databasePath)\(who)", exitCode: StartupError.unavailableExitCode)
            }
            throw StartupError("moviesd: \(path): cannot lock: \(error.reason)", exitCode: StartupError.systemExitCode)
        }
        let text = Array("\(pid)\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    private static func readPID(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Int32(text)
    }
}
