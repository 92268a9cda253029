import Testing
@testable import MoviesDaemon

/// The state database follows `Database=` (which names the cache database, as it always did).
@Suite struct DaemonPathsStateTests {
    @Test(arguments: [
        ("/var/lib/moviesd/cache.sqlite3", "/var/lib/moviesd/state.sqlite3"),
        ("/data/db.sqlite3", "/data/state.sqlite3"),
        ("/cache.sqlite3", "/state.sqlite3"),
        ("/data/state.sqlite3", "/data/user-state.sqlite3"),
    ])
    func theStateDatabaseSitsBesideTheCacheDatabase(cache: String, state: String) {
        #expect(DaemonPaths(socketPath: "/run/s", databasePath: cache).statePath == state)
    }

    @Test func theDefaultsPutBothInTheDataDirectory() {
        #expect(DaemonPaths.defaults(environment: [:], uid: 0).statePath == "/var/lib/moviesd/state.sqlite3")
        let user = DaemonPaths.defaults(environment: ["XDG_STATE_HOME": "/home/u/state"], uid: 1000)
        #expect(user.statePath == "/home/u/state/moviesd/state.sqlite3")
    }
}
