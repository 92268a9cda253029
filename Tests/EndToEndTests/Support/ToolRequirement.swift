import Foundation
import Testing

/// External tools some tests need. Under `CI=true` a missing tool fails the test; elsewhere the
/// test is skipped with a visible message, so a fresh clone still passes.
enum ToolRequirement {
    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// The Python interpreter: `$MOVIESD_PYTHON`, else the first `python3` on `PATH`, the one
    /// `.ci/run` installs varlink into with `python3 -m pip`.
    static var python: String {
        let configured = ProcessInfo.processInfo.environment["MOVIESD_PYTHON"] ?? ""
        return configured.isEmpty ? "python3" : configured
    }

    /// Whether `python -c 'import varlink'` works.
    static let pythonVarlink: Bool = {
        (try? ProcessRunner.run("/usr/bin/env", [python, "-c", "import varlink"], timeout: 60).status) == 0
    }()

    /// Whether `python -c 'import pyte'` works (the terminal emulator of the browse tests).
    static let pythonPyte: Bool = {
        (try? ProcessRunner.run("/usr/bin/env", [python, "-c", "import pyte"], timeout: 60).status) == 0
    }()

    /// Whether `python -c 'import prometheus_client'` works (the metrics tests' parsers).
    static let pythonPrometheusClient: Bool = {
        (try? ProcessRunner.run("/usr/bin/env", [python, "-c", "import prometheus_client"], timeout: 60).status) == 0
    }()

    /// Whether an executable exists at `path`.
    static func exists(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// Records a failure under CI, or prints a skip notice; returns whether the test can go on.
    static func require(_ available: Bool, _ what: String) -> Bool {
        if available { return true }
        if isCI {
            Issue.record("\(what) is required under CI=true but missing (.ci/run installs it)")
        } else {
            print("◇ skipped: \(what) is not installed (install it to run this test)")
        }
        return false
    }
}
