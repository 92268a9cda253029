import Foundation
import Testing
@testable import MoviesDaemon

@Suite struct InstanceLockTests {
    @Test func secondLockOnTheSameDatabaseFailsNamingItAndThePID() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let database = directory.file("cache.sqlite3")
        let first = try InstanceLock(databasePath: database, pid: 4242)
        #expect(first.path == database + ".lock")
        #expect(try String(contentsOfFile: first.path, encoding: .utf8) == "4242\n")
        do {
            _ = try InstanceLock(databasePath: database, pid: 7)
            Issue.record("a second lock was granted")
        } catch {
            #expect(error.message == "moviesd: another moviesd is already using \(database) (pid 4242)")
            #expect(error.exitCode == 69)
        }
        _ = first
    }

    @Test func lockIsReleasedWhenTheHolderGoesAway() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let database = directory.file("cache.sqlite3")
        do {
            let first = try InstanceLock(databasePath: database, pid: 1)
            _ = first
        }
        let second = try InstanceLock(databasePath: database, pid: 2)
        #expect(try String(contentsOfFile: second.path, encoding: .utf8) == "2\n")
    }

    @Test func differentDatabasesDoNotConflict() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let first = try InstanceLock(databasePath: directory.file("a.sqlite3"))
        let second = try InstanceLock(databasePath: directory.file("b.sqlite3"))
        #expect(first.path != second.path)
    }

    @Test func unopenableLockFileIsNamed() throws {
        let database = "/nonexistent-moviesd-dir/cache.sqlite3"
        do {
            _ = try InstanceLock(databasePath: database)
            Issue.record("lock in a missing directory succeeded")
        } catch {
            #expect(error.message == "moviesd: \(database).lock: cannot open lock file: No such file or directory")
        }
    }
}
