import Foundation

/// A fresh directory under the system temporary directory, removed by `remove()`.
struct ScratchDirectory {
    let path: String

    init() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("moviesd-tests-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    /// `path/name`.
    func file(_ name: String) -> String { path + "/" + name }

    /// Writes `contents` to `path/name` and returns its path.
    @discardableResult
    func write(_ name: String, _ contents: String) throws -> String {
        let target = file(name)
        try contents.write(toFile: target, atomically: true, encoding: .utf8)
        return target
    }

    /// Creates `path/name` (and its parents) and returns its path.
    @discardableResult
    func makeDirectory(_ name: String) throws -> String {
        try FileManager.default.createDirectory(atPath: file(name), withIntermediateDirectories: true)
        return file(name)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

