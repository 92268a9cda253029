import FoundationEssentials
import Foundation
@testable import SQLiteStore

/// A fresh directory under /dev/shm (a tmpfs, where a durable commit's fsync costs nothing; what a
/// power cut keeps is `PowerCutTests`' business) or else the system temporary directory, removed by
/// `remove()`.
struct TemporaryDatabase {
    let directory: URL

    init() throws {
        let base = FileManager.default.isWritableFile(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
        directory = base.appendingPathComponent("sqlitestore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// A database path inside the directory.
    var path: String { directory.appendingPathComponent("movies.sqlite").path }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// Runs `body` with a temporary database path, then removes the directory.
    static func with<T>(_ body: (TemporaryDatabase) async throws -> T) async throws -> T {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        return try await body(database)
    }
}
