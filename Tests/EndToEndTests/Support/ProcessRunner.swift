import Foundation

/// The outcome of a finished process.
struct ProcessResult: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs executables with output captured in files (no pipe deadlocks) and a hard time limit.
enum ProcessRunner {
    /// Runs `path` with `arguments` and waits at most `timeout` seconds (then kills it).
    static func run(_ path: String, _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil, timeout: Double = 20) throws -> ProcessResult {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("moviesd-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let outURL = dir.appendingPathComponent("out")
        let errURL = dir.appendingPathComponent("err")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        if let stdin {
            let inURL = dir.appendingPathComponent("in")
            try Data(stdin.utf8).write(to: inURL)
            process.standardInput = try FileHandle(forReadingFrom: inURL)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw ProcessTimeout(command: ([path] + arguments).joined(separator: " "), seconds: timeout)
        }
        process.waitUntilExit()
        try out.close()
        try err.close()
        return ProcessResult(
            status: process.terminationStatus,
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
