import Foundation
import Glibc
import Networking

/// Writes one-line log messages to standard error, in the journal's format when run by systemd.
///
/// Each message becomes exactly one line written with a single `write(2)`, so concurrent writers never
/// interleave. When `JOURNAL_STREAM` is set (systemd.exec(5)) a line is `<N>message` with the syslog
/// priority `N` and no timestamp (the journal adds its own); otherwise it is
/// `2026-11-22T03:00:00Z moviesd[pid]: level: message`.
///
/// As a last line of defence, every secret registered with ``redacting(_:)`` is replaced by
/// `[redacted]` in every message before it is written.
public struct Logger: Sendable {
    /// Messages below this level are dropped.
    public var minimumLevel: LogLevel
    /// Whether lines carry journal `<N>` prefixes instead of a timestamp and identifier.
    public var usesJournalFormat: Bool
    /// The identifier written before the pid in plain lines.
    public var identifier: String
    /// The file descriptor lines are written to (standard error unless a test redirects it).
    public var fileDescriptor: Int32
    private var secrets: [String] = []

    /// Creates a logger.
    /// - Parameters:
    ///   - minimumLevel: messages below it are dropped.
    ///   - usesJournalFormat: `<N>` prefixes and no timestamp, for systemd's journal.
    ///   - identifier: the program name in plain lines.
    ///   - fileDescriptor: where lines go; standard error by default.
    public init(minimumLevel: LogLevel = .info, usesJournalFormat: Bool = false, identifier: String = "moviesd", fileDescriptor: Int32 = STDERR_FILENO) {
        self.minimumLevel = minimumLevel
        self.usesJournalFormat = usesJournalFormat
        self.identifier = identifier
        self.fileDescriptor = fileDescriptor
    }

    /// Creates a standard-error logger whose format follows `environment`: journal prefixes when
    /// `JOURNAL_STREAM` is set and non-empty.
    public init(minimumLevel: LogLevel, environment: [String: String]) {
        let journal = !(environment["JOURNAL_STREAM"] ?? "").isEmpty
        self.init(minimumLevel: minimumLevel, usesJournalFormat: journal)
    }

    /// A copy of this logger that replaces `secret` by `[redacted]` in every message.
    ///
    /// Empty secrets are ignored (they would match everywhere).
    public func redacting(_ secret: String) -> Logger {
        var copy = self
        if !secret.isEmpty, !copy.secrets.contains(secret) { copy.secrets.append(secret) }
        return copy
    }

    /// Whether a message at `level` would be written.
    public func isEnabled(_ level: LogLevel) -> Bool { level >= minimumLevel }

    /// Logs `message` at `level`; the message is built only when the level is enabled.
    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard isEnabled(level) else { return }
        writeLine(formattedLine(level: level, message: message(), date: Date()))
    }

    /// Logs at `debug`.
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    /// Logs at `info`.
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    /// Logs at `notice`.
    public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    /// Logs at `warning`.
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    /// Logs at `error`.
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }

    /// The exact line (with its trailing newline) that `log` would write for `message` at `date`.
    ///
    /// Line breaks inside the message are escaped as `\n` so one message stays one line, and every
    /// registered secret is replaced by `[redacted]`.
    public func formattedLine(level: LogLevel, message: String, date: Date) -> String {
        let text = sanitized(message)
        if usesJournalFormat {
            return "<\(level.syslogPriority)>\(text)\n"
        }
        return "\(Self.timestamp(date)) \(identifier)[\(getpid())]: \(level): \(text)\n"
    }

    private func sanitized(_ message: String) -> String {
        var text = message
        for secret in secrets {
            text = Redaction.replacingWholeOccurrences(of: secret, in: text, with: "[redacted]")
        }
        if text.contains(where: { $0 == "\n" || $0 == "\r" }) {
            text = text.replacingOccurrences(of: "\r\n", with: "\\n")
                .replacingOccurrences(of: "\n", with: "\\n")
                .replacingOccurrences(of: "\r", with: "\\r")
        }
        return text
    }

    /// Writes the whole line with as few `write(2)` calls as the kernel allows (one for a pipe or
    /// terminal when the line is under `PIPE_BUF`), retrying on `EINTR`. Failures are ignored:
    /// there is nowhere left to report them.
    private func writeLine(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = write(fileDescriptor, base + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }

    /// Formats `date` as an RFC 3339 UTC timestamp with whole seconds.
    static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = Int(parts.tm_year) + 1900
        return "\(year)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
