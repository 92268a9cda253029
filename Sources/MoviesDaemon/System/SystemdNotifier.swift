import Glibc

/// Tells systemd about the daemon's state over `$NOTIFY_SOCKET`, as sd_notify(3) does, without
/// libsystemd: `READY=1`, `STATUS=…`, `STOPPING=1`, `WATCHDOG=1` and `MAINPID=`.
///
/// The socket may be a path or an abstract name written `@name`. Every method is a no-op when
/// `NOTIFY_SOCKET` is unset, and none throws: a failure is logged as a warning and forgotten, since
/// the service must keep running even if systemd cannot be told.
public struct SystemdNotifier: Sendable {
    /// The notification socket, or nil when not run by systemd with `Type=notify`.
    public let socketAddress: UnixSocketAddress?
    /// How often to send `WATCHDOG=1` (half of `WATCHDOG_USEC`), or nil when no watchdog is set.
    public let watchdogInterval: Duration?
    private let logger: Logger?

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` from `environment`.
    public init(environment: [String: String], pid: Int32 = getpid(), logger: Logger? = nil) {
        let name = environment["NOTIFY_SOCKET"] ?? ""
        let address = name.isEmpty ? nil : UnixSocketAddress(name)
        if !name.isEmpty, address == nil {
            logger?.warning("NOTIFY_SOCKET '\(name)' is not a usable Unix socket address; not notifying systemd")
        }
        self.socketAddress = address
        self.watchdogInterval = Self.watchdogInterval(environment: environment, pid: pid)
        self.logger = logger
    }

    /// Whether notifications go anywhere.
    public var isEnabled: Bool { socketAddress != nil }

    /// Half the watchdog timeout from `WATCHDOG_USEC`, when set, positive and (if `WATCHDOG_PID` is
    /// set) meant for `pid`; nil otherwise.
    public static func watchdogInterval(environment: [String: String], pid: Int32) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"], let microseconds = UInt64(text), microseconds > 0 else { return nil }
        if let owner = environment["WATCHDOG_PID"], !owner.isEmpty {
            guard Int32(owner) == pid else { return nil }
        }
        return .microseconds(Int64(clamping: microseconds / 2))
    }

    /// `READY=1`, optionally with a status line.
    public func ready(status: String? = nil) {
        notify(["READY=1"] + (status.map { ["STATUS=\($0)"] } ?? []))
    }

    /// `STATUS=text`: the line `systemctl status` shows.
    public func status(_ text: String) {
        notify(["STATUS=\(text)"])
    }

    /// `STOPPING=1`, optionally with a status line.
    public func stopping(status: String? = nil) {
        notify(["STOPPING=1"] + (status.map { ["STATUS=\($0)"] } ?? []))
    }

    /// `WATCHDOG=1`: the keep-alive ping; send every ``watchdogInterval``.
    public func watchdog() {
        notify(["WATCHDOG=1"])
    }

    /// `MAINPID=pid`: the daemon's main process, when it is not the one systemd started.
    public func mainPID(_ pid: Int32) {
        notify(["MAINPID=\(pid)"])
    }

    /// Sends the assignments as one datagram, newline-separated; returns whether it was sent.
    ///
    /// Line breaks inside an assignment are replaced by spaces so a status cannot inject others.
    @discardableResult
    public func notify(_ assignments: [String]) -> Bool {
        guard let socketAddress else { return false }
        let message = assignments
            .map { $0.replacing("\n", with: " ") }
            .joined(separator: "\n")
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            logger?.warning("cannot notify systemd: \(SystemCallError("socket"))")
            return false
        }
        defer { close(descriptor) }
        let bytes = Array(message.utf8)
        let sent = socketAddress.withSocketAddress { address, length in
            bytes.withUnsafeBytes { buffer in
                var result: Int
                repeat {
                    result = sendto(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL), address, length)
                } while result < 0 && errno == EINTR
                return result
            }
        }
        guard sent == bytes.count else {
            logger?.warning("cannot notify systemd at \(socketAddress.name): \(SystemCallError("sendto"))")
            return false
        }
        return true
    }
}
