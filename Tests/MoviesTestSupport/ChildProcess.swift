import Foundation
import Synchronization

/// A child process started with `posix_spawn` and reaped with `waitpid(WNOHANG)` polling, for tests
/// that run another program: every wait is bounded and `stop` kills it by PID (its whole process
/// group when started with `ownProcessGroup`, so a child it started itself goes too).
///
/// Foundation's `Process` is avoided on purpose: it learns of a child's exit through an inherited
/// socket, and a child that closes inherited descriptors (as `systemd-socket-activate` does) makes
/// it block in `wait4()` on that child, which stops it from reaping every other child.
public final class ChildProcess: Sendable {
    /// `posix_spawn` failed.
    public struct SpawnError: Error, CustomStringConvertible {
        /// What failed.
        public var description: String
    }

    /// The child's process ID (and its process group's, when started with `ownProcessGroup`).
    public let pid: pid_t
    private let ownProcessGroup: Bool
    /// The exit status, once reaped.
    private let exitStatus = Mutex<Int32?>(nil)

    /// Starts `path` with `arguments`, the current environment plus `environment`, and its standard
    /// streams connected to the given files (`/dev/null` for a missing stdin); in a process group of
    /// its own when `ownProcessGroup`.
    public init(
        _ path: String, _ arguments: [String], environment: [String: String] = [:],
        stdin: String? = nil, stdout: String = "/dev/null", stderr: String = "/dev/null", ownProcessGroup: Bool = false
    ) throws {
        self.ownProcessGroup = ownProcessGroup
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD, SIGUSR1, SIGUSR2] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        guard result == 0 else { throw SpawnError(description: "posix_spawn(\(path)) failed: \(String(cString: strerror(result)))") }
        pid = child
    }

    /// Whether the child is still running (reaps it when it has exited).
    public var isRunning: Bool { status == nil }

    /// The exit status (128 + signal number for a signalled child), or `nil` while running.
    public var status: Int32? {
        exitStatus.withLock { exitStatus in
            if let exitStatus { return exitStatus }
            var raw: Int32 = 0
            let reaped = waitpid(pid, &raw, WNOHANG)
            guard reaped == pid else { return nil }
            let signal = raw & 0x7F
            exitStatus = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
            return exitStatus
        }
    }

    /// Waits up to `timeout` seconds for the exit; returns the status or `nil` on timeout.
    public func wait(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let status { return status }
            usleep(5_000)
        }
        return status
    }

    /// Sends `signal`, waits up to `timeout` seconds, then SIGKILLs; returns the exit status. With
    /// `ownProcessGroup`, the signals go to the whole group, and what is left of it is SIGKILLed.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, timeout: Double = 10) -> Int32 {
        let target = ownProcessGroup ? -pid : pid
        if let status {
            if ownProcessGroup { kill(target, SIGKILL) }
            return status
        }
        kill(target, signal)
        if let status = wait(timeout: timeout) {
            if ownProcessGroup { kill(target, SIGKILL) }
            return status
        }
        kill(target, SIGKILL)
        return wait(timeout: 5) ?? 128 + SIGKILL
    }
}
