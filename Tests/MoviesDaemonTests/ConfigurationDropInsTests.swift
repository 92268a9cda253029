import Foundation
import Testing
@testable import MoviesDaemon

/// `FILE.d/*.conf` drop-ins: read after the main file in lexical order, later values winning,
/// errors naming the drop-in; the command line still wins over all of them.
@Suite struct ConfigurationDropInsTests {
    @Test func dropInsOverrideTheMainFileInLexicalOrder() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let path = try directory.write("m.conf", "[Remote]\nMaxRetries=1\nLanguage=en-US\n[Cache]\nNegativeSec=5\n")
        try directory.makeDirectory("m.conf.d")
        // Byte order, as systemd's strcmp: "10-…" before "9-…", upper case before lower case.
        try directory.write("m.conf.d/9-second.conf", "[Remote]\nMaxRetries=9\n")
        try directory.write("m.conf.d/10-first.conf", "[Remote]\nMaxRetries=3\nLanguage=de-DE\n")
        try directory.write("m.conf.d/Z-third.conf", "[Remote]\nMaxRetries=6\n")
        try directory.write("m.conf.d/a-fourth.conf", "[Cache]\nNegativeSec=7\n")
        let configuration = try DaemonConfiguration.load(arguments: DaemonArguments(configurationPath: path), environment: [:], uid: 1000)
        #expect(configuration.remote.maxRetries == 6)
        #expect(configuration.remote.language == "de-DE")
        #expect(configuration.cache.negativeSeconds == 7)
        // A quota error says where to raise the quota: in this file's drop-ins (issue 45).
        #expect(configuration.users.raisedIn == directory.file("m.conf.d/*.conf"))
        #expect(try ConfigurationDropIns(configurationPath: path).paths == [
            "10-first.conf", "9-second.conf", "Z-third.conf", "a-fourth.conf",
        ].map { directory.file("m.conf.d/\($0)") })
    }

    @Test func anEmptyValueInADropInResetsTheMainFilesSetting() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let path = try directory.write("m.conf", "[Daemon]\nAuthorizedGroup=0\nDatabase=/from/main.sqlite3\n")
        try directory.makeDirectory("m.conf.d")
        try directory.write("m.conf.d/50-local.conf", "[Daemon]\nAuthorizedGroup=\n")
        let configuration = try DaemonConfiguration.load(arguments: DaemonArguments(configurationPath: path), environment: [:], uid: 1000)
        #expect(configuration.daemon.authorizedGroup == nil)
        #expect(configuration.daemon.databasePath == "/from/main.sqlite3")
    }

    @Test func theCommandLineWinsOverDropIns() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let path = try directory.write("m.conf", "")
        try directory.makeDirectory("m.conf.d")
        try directory.write("m.conf.d/50-local.conf", "[Daemon]\nSocket=/from/drop-in.sock\nDatabase=/from/drop-in.sqlite3\n")
        let arguments = DaemonArguments(configurationPath: path, socketPath: "/from/cli.sock")
        let configuration = try DaemonConfiguration.load(arguments: arguments, environment: [:], uid: 1000)
        #expect(configuration.daemon.socketPath == "/from/cli.sock")
        #expect(configuration.daemon.databasePath == "/from/drop-in.sqlite3")
    }

    @Test func errorsNameTheDropInAndItsLine() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let path = try directory.write("m.conf", "[Remote]\nMaxRetries=1\n")
        try directory.makeDirectory("m.conf.d")
        try directory.write("m.conf.d/10-good.conf", "[Remote]\nMaxRetries=2\n")
        let bad = try directory.write("m.conf.d/20-bad.conf", "# local\n[Remote]\nMaxRetries=lots\n")
        #expect(throws: ConfigurationError(path: bad, line: 3, reason: "invalid value 'lots' for MaxRetries in section [Remote]: expected an integer between 0 and 10")) {
            try DaemonConfiguration.load(arguments: DaemonArguments(configurationPath: path), environment: [:], uid: 1000)
        }
        try directory.write("m.conf.d/20-bad.conf", "[Remote]\nRetries=3\n")
        do {
            _ = try DaemonConfiguration.load(arguments: DaemonArguments(configurationPath: path), environment: [:], uid: 1000)
            Issue.record("an unknown key in a drop-in was accepted")
        } catch {
            #expect(error.description == "moviesd: \(bad):2: unknown key 'Retries' in section [Remote]")
        }
    }

    @Test func hiddenFilesAndOtherNamesAreIgnored() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let path = try directory.write("m.conf", "")
        try directory.makeDirectory("m.conf.d")
        for name in [".hidden.conf", "50-local.conf.dpkg-dist", "50-local.conf~", "README", ".conf"] {
            try directory.write("m.conf.d/\(name)", "not a configuration file\n")
        }
        try directory.makeDirectory("m.conf.d/sub.d")
        try directory.write("m.conf.d/60-real.conf", "[Remote]\nMaxRetries=4\n")
        let configuration = try DaemonConfiguration.load(arguments: DaemonArguments(configurationPath: path), environment: [:], uid: 1000)
        #expect(configuration.remote.maxRetries == 4)
    }

    @Test func noDirectoryMeansNoDropInsButAFileInItsPlaceIsAnError() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let path = try directory.write("m.conf", "[Remote]\nMaxRetries=1\n")
        let configuration = try DaemonConfiguration.load(arguments: DaemonArguments(configurationPath: path), environment: [:], uid: 1000)
        #expect(configuration.remote.maxRetries == 1)
        let notADirectory = try directory.write("m.conf.d", "")
        do {
            _ = try DaemonConfiguration.load(arguments: DaemonArguments(configurationPath: path), environment: [:], uid: 1000)
            Issue.record("a file named like the drop-in directory was accepted")
        } catch {
            #expect(error.description == "moviesd: \(notADirectory): cannot read drop-in directory: Not a directory")
        }
    }

    @Test func theDefaultFilesDropInsAreReadEvenWithoutTheDefaultFile() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        try directory.makeDirectory("moviesd/moviesd.conf.d")
        try directory.write("moviesd/moviesd.conf.d/50-local.conf", "[Remote]\nMaxRetries=6\n")
        let environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
        let configuration = try DaemonConfiguration.load(arguments: DaemonArguments(), environment: environment, uid: 1000)
        #expect(configuration.remote.maxRetries == 6)
    }

    /// A group the system does not have is found at start, after every file was read: the error
    /// names the file and line that set it, as errors found while reading do (it named neither).
    @Test func anUnknownAuthorizedGroupNamesTheFileAndLineThatSetIt() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let path = try directory.write("m.conf", "[Daemon]\nAuthorizedGroup=root\n")
        try directory.makeDirectory("m.conf.d")
        let dropIn = try directory.write("m.conf.d/50-local.conf", "# the admins\n[Daemon]\nAuthorizedGroup=no-such-group-moviesd\n")
        let configuration = try DaemonConfiguration.load(arguments: DaemonArguments(configurationPath: path), environment: [:], uid: 1000)
        #expect(configuration.origins[ConfigurationKey(section: "Daemon", key: "AuthorizedGroup")] == ConfigurationOrigin(path: dropIn, line: 3))
        do {
            _ = try configuration.resolvedAuthorizedGroupID()
            Issue.record("an unknown group resolved")
        } catch {
            #expect(error.description == "moviesd: \(dropIn):3: invalid value 'no-such-group-moviesd' for AuthorizedGroup in section [Daemon]: no such group (create it with groupadd, or name an existing group or gid)")
            #expect(error.exitCode == 78)
        }
        // The main file's group, once the drop-in is gone: root exists everywhere.
        try FileManager.default.removeItem(atPath: dropIn)
        let fixed = try DaemonConfiguration.load(arguments: DaemonArguments(configurationPath: path), environment: [:], uid: 1000)
        #expect(try fixed.resolvedAuthorizedGroupID() == 0)
    }
}

