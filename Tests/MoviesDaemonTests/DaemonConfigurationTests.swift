import Testing
@testable import MoviesDaemon
@testable import MoviesData
import MoviesDomain

@Suite struct DaemonConfigurationTests {
    @Test func loadReadsTheGivenFileThenAppliesTheCommandLine() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let path = try directory.write("m.conf", "[Daemon]\nDatabase=/from/file.sqlite3\nSocket=/from/file.sock\n[Cache]\nNegativeSec=5\n")
        let arguments = DaemonArguments(configurationPath: path, socketPath: "/from/cli.sock")
        let configuration = try DaemonConfiguration.load(arguments: arguments, environment: [:], uid: 1000)
        #expect(configuration.daemon.databasePath == "/from/file.sqlite3")
        #expect(configuration.daemon.socketPath == "/from/cli.sock")
        #expect(configuration.cache.negativeSeconds == 5)
    }

    @Test func missingDefaultFileIsFineButMissingGivenFileIsNot() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
        let configuration = try DaemonConfiguration.load(arguments: DaemonArguments(), environment: environment, uid: 1000)
        // The defaults, and where this user's quotas would be raised: the default file's drop-ins.
        var defaults = DaemonConfiguration()
        defaults.users.raisedIn = directory.path + "/moviesd/moviesd.conf.d/*.conf"
        #expect(configuration == defaults)
        #expect(throws: ConfigurationError.self) {
            try DaemonConfiguration.load(arguments: DaemonArguments(configurationPath: directory.file("none.conf")), environment: environment, uid: 1000)
        }
    }

    @Test func defaultFileUnderXDGConfigHomeIsRead() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        try directory.makeDirectory("moviesd")
        try directory.write("moviesd/moviesd.conf", "[Remote]\nMaxRetries=7\n")
        let configuration = try DaemonConfiguration.load(arguments: DaemonArguments(), environment: ["XDG_CONFIG_HOME": directory.path], uid: 1000)
        #expect(configuration.remote.maxRetries == 7)
    }

    @Test func cacheSettingsBecomeTheCachePolicy() {
        var settings = CacheSettings()
        settings.searchFreshSeconds = 11
        settings.movieMaxStaleSeconds = 22
        settings.negativeSeconds = 33
        settings.maxBytes = 44
        settings.honorRemoteMaxAge = true
        let policy = settings.cachePolicy
        #expect(policy.freshSeconds[.search] == 11)
        #expect(policy.freshSeconds[.movie] == 86_400)
        #expect(policy.maxStaleSeconds[.movie] == 22)
        #expect(policy.negativeSeconds == 33)
        #expect(policy.byteBudget == 44)
        #expect(policy.honorRemoteMaxAge)
    }

    @Test func eachUsersPinsTakeAQuarterOfMaxBytesUnlessPinnedBytesPerUserSays() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let user = Owner.user(LocalUser(uid: 1000))
        for (text, userBytes) in [("", Int64(512 * 1024)), ("PinnedBytesPerUser=64K\n", 64 * 1024), ("PinnedBytesPerUser=64K\nPinnedBytesPerUser=\n", 512 * 1024)] {
            let path = try directory.write("m.conf", "[Cache]\nMaxBytes=2M\n[Users]\n" + text)
            let configuration = try DaemonConfiguration.load(arguments: DaemonArguments(configurationPath: path), environment: [:], uid: 1000)
            let paths = DaemonPaths(socketPath: directory.file("io.moviesd.Movies"), databasePath: directory.file("cache.sqlite3"))
            let container = try AppDIContainer(configuration: configuration, paths: paths, credential: .none)
            let budget = await container.refresher.settings.pinBudget
            #expect(budget.bytes(for: user) == userBytes, "\(text)")
            #expect(budget.bytes(for: .system) == 2 * 1024 * 1024, "the system's lists: the whole budget")
            await container.close()
        }
    }
}
