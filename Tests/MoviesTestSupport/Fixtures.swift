import Foundation

/// Locates the recorded TMDB responses in `shared/tmdb-fixtures` (never copied into the repo).
///
/// Looks in `$MOVIESD_FIXTURES`, else in `<package root>/../shared/tmdb-fixtures`. Tests that need
/// them are disabled with `missingReason` when absent, and must fail instead when `isRunningInCI`.
public enum Fixtures {
    /// One entry of `manifest.json`.
    public struct Entry: Decodable, Sendable, Hashable {
        /// The path relative to the fixtures directory.
        public var file: String
        /// The TMDB endpoint that produced it, such as `search/movie?query=007`.
        public var endpoint: String
        /// The HTTP status it was served with.
        public var httpStatus: Int
        /// `original` or `derived`.
        public var kind: String?

        enum CodingKeys: String, CodingKey {
            case file, endpoint, kind
            case httpStatus = "http_status"
        }

        /// The file name, for test output (conform to Testing's `CustomTestStringConvertible` in tests).
        public var testDescription: String { file }
    }

    /// The directory in use, whether or not it exists.
    public static var directory: URL {
        if let path = ProcessInfo.processInfo.environment["MOVIESD_FIXTURES"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/tmdb-fixtures", isDirectory: true)
    }

    /// Whether the directory holds a `manifest.json`.
    public static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("manifest.json").path)
    }

    /// Whether `CI=true`: missing fixtures are then a failure, not a skip.
    public static var isRunningInCI: Bool {
        ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true"
    }

    /// Why fixture tests are skipped, naming the directory searched and how to point elsewhere.
    public static var missingReason: String {
        "TMDB fixtures not found at \(directory.path) (set MOVIESD_FIXTURES to the tmdb-fixtures directory); fixture tests skipped"
    }

    /// The URL of fixture `relativePath`.
    public static func url(_ relativePath: String) -> URL {
        directory.appendingPathComponent(relativePath)
    }

    /// The bytes of fixture `relativePath`.
    public static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }

    /// The manifest entries, or `[]` when the fixtures are missing or the manifest is unreadable.
    public static func manifest() -> [Entry] {
        guard let data = try? data("manifest.json"),
              let entries = try? JSONDecoder().decode([Entry].self, from: data) else { return [] }
        return entries
    }

    /// The package root, from this file's path (`<root>/Tests/MoviesTestSupport/Fixtures.swift`).
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
    }
}
