import Foundation
import Testing

/// Finds the built executables: `$MOVIESD_BIN_DIR` (set by `scripts/test`), else `.build/debug`.
enum BinaryLocator {
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    static var binDirectory: URL {
        if let dir = ProcessInfo.processInfo.environment["MOVIESD_BIN_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir)
        }
        return packageRoot.appendingPathComponent(".build/debug")
    }

    /// The path of executable `name`; records an issue when it has not been built.
    static func path(_ name: String) -> String {
        let url = binDirectory.appendingPathComponent(name)
        if !FileManager.default.isExecutableFile(atPath: url.path) {
            Issue.record("\(url.path) is not built: run `swift build` (or scripts/test) first")
        }
        return url.path
    }
}
