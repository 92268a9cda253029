import Foundation

/// A long-running child process (stub, daemon) with its output in files, killed on `stop()`.
final class BackgroundProcess: @unchecked Sendable {
    let process = Process()
    let stdoutURL: URL
    let stderrURL: URL

    init(_ path: String, _ arguments: [String], environment: [String: String] = [:], logDirectory: URL, name: String) throws {
        stdoutURL = logDirectory.appendingPathComponent("\(name).out")
        stderrURL = logDirectory.appendingPathComponent("\(name).err")
        FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }
    var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// Sends `signal` and waits up to `timeout` seconds for the exit; SIGKILL after that.
    /// Returns the exit status (or the signal number for a killed process).
    @discardableResult
    func stop(signal: Int32 = SIGTERM, timeout: Double = 10) -> Int32 {
        guard process.isRunning else { return process.terminationStatus }
        kill(pid, signal)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Polls `condition` every 10 ms for at most `timeout` seconds.
    static func waitUntil(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    deinit { stop(signal: SIGKILL, timeout: 2) }
}
