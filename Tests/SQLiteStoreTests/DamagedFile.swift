import Foundation

/// Damages real database files the way disks and crashes do, for tests.
enum DamagedFile {
    /// Overwrites page `page` (1-based, of `pageSize` bytes) of the file at `path` with garbage.
    static func overwritePage(_ page: Int, of path: String, pageSize: Int = 4096) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64((page - 1) * pageSize))
        var generator = SystemRandomNumberGenerator()
        try handle.write(contentsOf: Data((0..<pageSize).map { _ in UInt8.random(in: 0...255, using: &generator) }))
    }

    /// Cuts the file at `path` to half its length.
    static func truncateToHalf(_ path: String) throws {
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.truncate(atOffset: UInt64(size / 2))
    }

    /// The file's bytes.
    static func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }
}
