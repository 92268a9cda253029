import Foundation
import MoviesTestSupport

/// A long-running child process (stub, daemon) with its output in files, killed on `stop()`.
final class BackgroundProcess: @unchecked Sendable {
    private let child: ChildProcess
    let stdoutURL: URL
    let stderrURL: URL

    init(_ path: String, _ arguments: [String], environment: [String: String] = [:], logDirectory: URL, name: String) throws {
        stdoutURL = logDirectory.appendingPathComponent("\(name).out")
        stderrURL = logDirectory.appendingPathComponent("\(name).err")
        child = try ChildProcess(path, arguments, environment: environment, stdin: nil, stdout: stdoutURL.path, stderr: stderrURL.path)
    }

    var pid: Int32 { child.pid }
    var isRunning: Bool { child.isRunning }
    var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// Sends `signal` and waits up to `timeout` seconds for the exit; SIGKILL after that.
    /// Returns the exit status (128 + signal for a killed process).
    @discardableResult
    func stop(signal: Int32 = SIGTERM, timeout: Double = 10) -> Int32 {
        child.stop(signal: signal, timeout: timeout)
    }

    /// Polls `condition` every 10 ms for at most `timeout` seconds.
    static func waitUntil(timeout: Double = ProcessDeadline.seconds, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    deinit { stop(signal: SIGKILL, timeout: 2) }
}
