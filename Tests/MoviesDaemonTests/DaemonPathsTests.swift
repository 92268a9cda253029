import Glibc
import Testing
@testable import MoviesDaemon

@Suite struct DaemonPathsTests {
    @Test func rootUsesSystemDirectories() {
        let paths = DaemonPaths.defaults(environment: ["XDG_RUNTIME_DIR": "/run/user/0", "HOME": "/root"], uid: 0)
        #expect(paths.socketPath == "/run/moviesd/io.moviesd.Movies")
        #expect(paths.databasePath == "/var/lib/moviesd/cache.sqlite3")
        #expect(DaemonPaths.defaultConfigurationPath(environment: [:], uid: 0) == "/etc/moviesd/moviesd.conf")
    }

    @Test func userUsesXDGDirectories() {
        let environment = ["XDG_RUNTIME_DIR": "/run/user/1000", "XDG_STATE_HOME": "/home/u/state/", "XDG_CONFIG_HOME": "/home/u/cfg", "HOME": "/home/u"]
        let paths = DaemonPaths.defaults(environment: environment, uid: 1000)
        #expect(paths.socketPath == "/run/user/1000/moviesd/io.moviesd.Movies")
        #expect(paths.databasePath == "/home/u/state/moviesd/cache.sqlite3")
        #expect(DaemonPaths.defaultConfigurationPath(environment: environment, uid: 1000) == "/home/u/cfg/moviesd/moviesd.conf")
    }

    @Test func userFallsBackToHomeAndRunUser() {
        let environment = ["HOME": "/home/u", "XDG_STATE_HOME": "relative/ignored", "XDG_RUNTIME_DIR": ""]
        let paths = DaemonPaths.defaults(environment: environment, uid: 1000)
        #expect(paths.socketPath == "/run/user/1000/moviesd/io.moviesd.Movies")
        #expect(paths.databasePath == "/home/u/.local/state/moviesd/cache.sqlite3")
        #expect(DaemonPaths.defaultConfigurationPath(environment: environment, uid: 1000) == "/home/u/.config/moviesd/moviesd.conf")
        #expect(DaemonPaths.defaults(environment: [:], uid: 1000, homeDirectory: "/srv/h").databasePath == "/srv/h/.local/state/moviesd/cache.sqlite3")
    }

    @Test func configuredPathsWinOverDefaults() {
        var configuration = DaemonConfiguration()
        configuration.daemon.databasePath = "/data/db.sqlite3"
        let paths = DaemonPaths.resolve(configuration, environment: ["XDG_RUNTIME_DIR": "/run/user/5", "HOME": "/h"], uid: 5)
        #expect(paths.databasePath == "/data/db.sqlite3")
        #expect(paths.socketPath == "/run/user/5/moviesd/io.moviesd.Movies")
    }

    @Test func prepareCreatesTheSocketsDirectories0755AndTheDatabases0700() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let paths = DaemonPaths(socketPath: directory.file("run/moviesd/io.moviesd.Movies"), databasePath: directory.file("state/a/moviesd/cache.sqlite3"))
        try paths.prepare()
        for (created, mode) in [("run/moviesd", 0o755), ("run", 0o755), ("state/a/moviesd", 0o700), ("state/a", 0o700)] as [(String, mode_t)] {
            var status = stat()
            #expect(stat(directory.file(created), &status) == 0)
            #expect(status.st_mode & S_IFMT == S_IFDIR)
            #expect(status.st_mode & 0o777 == mode, "\(created)")
        }
        try paths.prepare()
    }

    @Test func socketActivatedPrepareLeavesTheSocketDirectoryAlone() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        // A socket directory the daemon could neither create nor write: under a regular file.
        let blocker = try directory.write("file", "not a directory")
        let paths = DaemonPaths(socketPath: blocker + "/run/io.moviesd.Movies", databasePath: directory.file("state/cache.sqlite3"))
        try paths.prepare(socketActivated: true)
        var status = stat()
        #expect(stat(directory.file("state"), &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFDIR)
        #expect(throws: StartupError.self) { try paths.prepare(socketActivated: false) }
    }

    @Test func unusablePathFailsNamingThePath() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let blocker = try directory.write("file", "not a directory")
        let database = blocker + "/moviesd/cache.sqlite3"
        let paths = DaemonPaths(socketPath: directory.file("s/io.moviesd.Movies"), databasePath: database)
        do {
            try paths.prepare()
            Issue.record("prepare succeeded under a regular file")
        } catch {
            #expect(error.message.hasPrefix("moviesd: \(blocker)/moviesd: cannot create directory for \(database): "))
            #expect(error.message.hasSuffix("Not a directory"))
            #expect(error.exitCode == 73)
            #expect(!error.message.contains("\n"))
        }
    }

    @Test func anUnusableSocketDirectorySaysWhatToSet() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let blocker = try directory.write("file", "not a directory")
        let paths = DaemonPaths(socketPath: blocker + "/moviesd/io.moviesd.Movies", databasePath: directory.file("db/cache.sqlite3"))
        do {
            try paths.prepare()
            Issue.record("prepare succeeded under a regular file")
        } catch {
            #expect(error.exitCode == 73)
            #expect(error.message.contains("XDG_RUNTIME_DIR"), "\(error.message)")
            #expect(error.message.contains("--socket PATH"))
            #expect(!error.message.contains("\n"))
        }
    }

    @Test func parentOfPaths() {
        #expect(DaemonPaths.parent(of: "/a/b/c") == "/a/b")
        #expect(DaemonPaths.parent(of: "/c") == "/")
        #expect(DaemonPaths.parent(of: "c") == ".")
    }
}
