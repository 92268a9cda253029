import Foundation
import MoviesTestSupport

/// The outcome of a finished process.
struct ProcessResult: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs executables with output captured in files (no pipe deadlocks) and a hard time limit.
enum ProcessRunner {
    /// Runs `path` with `arguments` and waits at most `timeout` seconds (then kills it).
    static func run(_ path: String, _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil, timeout: Double = ProcessDeadline.seconds) throws -> ProcessResult {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("moviesd-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let outURL = dir.appendingPathComponent("out")
        let errURL = dir.appendingPathComponent("err")
        var stdinPath: String?
        if let stdin {
            let inURL = dir.appendingPathComponent("in")
            try Data(stdin.utf8).write(to: inURL)
            stdinPath = inURL.path
        }
        let child = try ChildProcess(path, arguments, environment: environment, stdin: stdinPath, stdout: outURL.path, stderr: errURL.path)
        guard let status = child.wait(timeout: timeout) else {
            child.stop(signal: SIGKILL, timeout: 2)
            throw ProcessTimeout(command: ([path] + arguments).joined(separator: " "), seconds: timeout)
        }
        return ProcessResult(
            status: status,
            stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        )
    }
}

/// A process that did not finish within its time limit.
struct ProcessTimeout: Error, CustomStringConvertible {
    var command: String
    var seconds: Double
    var description: String { "\(command) did not finish within \(seconds) s" }
}
