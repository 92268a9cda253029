import Testing
@testable import MoviesDaemon

@Suite struct ConfigurationFileTests {
    static let everyKey = """
        # a full file
        ; semicolon comment

        [Daemon]
        Socket = /tmp/x/io.moviesd.Movies
        SocketMode=0660
        Database=/tmp/x/cache.sqlite3
        AuthorizedGroup=movies
        LogLevel=debug
        MaxConnections=10
        MaxConnectionsPerUser=4
        MaxMessageBytes=1M
        IdleTimeoutSec=5min
        CallDeadlineSec=20
        AnswerDeadlineSec=0

        [Remote]
        URL=http://127.0.0.1:8080/3
        RequestsPerSecond=2.5
        RequestTimeoutSec=4s
        DeadlineSec=9
        MaxRetries=0
        Language=de-DE

        [Cache]
        SearchFreshSec=1h
        MovieFreshSec=2h
        ConfigurationFreshSec=1d
        SearchMaxStaleSec=7d
        MovieMaxStaleSec=1w
        NegativeSec=60
        MaxBytes=10M
        HonorRemoteMaxAge=yes
        """

    @Test func parsesEveryKey() throws {
        let configuration = try ConfigurationFile(contents: Self.everyKey, path: "/etc/m.conf").applied(to: DaemonConfiguration())
        let daemon = configuration.daemon
        #expect(daemon.socketPath == "/tmp/x/io.moviesd.Movies")
        #expect(daemon.socketMode == 0o660)
        #expect(daemon.databasePath == "/tmp/x/cache.sqlite3")
        #expect(daemon.authorizedGroup == .name("movies"))
        #expect(daemon.logLevel == .debug)
        #expect(daemon.maxConnections == 10)
        #expect(daemon.maxConnectionsPerUser == 4)
        #expect(daemon.maxMessageBytes == 1_048_576)
        #expect(daemon.idleTimeoutSeconds == 300)
        #expect(daemon.callDeadlineSeconds == 20)
        #expect(daemon.answerDeadlineSeconds == 0)
        let remote = configuration.remote
        #expect(remote.baseURL == "http://127.0.0.1:8080/3/")
        #expect(remote.requestsPerSecond == 2.5)
        #expect(remote.requestTimeoutSeconds == 4)
        #expect(remote.deadlineSeconds == 9)
        #expect(remote.maxRetries == 0)
        #expect(remote.language == "de-DE")
        let cache = configuration.cache
        #expect(cache.searchFreshSeconds == 3600)
        #expect(cache.movieFreshSeconds == 7200)
        #expect(cache.configurationFreshSeconds == 86400)
        #expect(cache.searchMaxStaleSeconds == 7 * 86400)
        #expect(cache.movieMaxStaleSeconds == 7 * 86400)
        #expect(cache.negativeSeconds == 60)
        #expect(cache.maxBytes == 10 * 1_048_576)
        #expect(cache.honorRemoteMaxAge)
    }

    @Test func emptyFileKeepsDefaults() throws {
        let configuration = try ConfigurationFile(contents: "\n# nothing\n", path: "/m.conf").applied(to: DaemonConfiguration())
        #expect(configuration == DaemonConfiguration())
        #expect(configuration.daemon.socketMode == 0o666)
        #expect(configuration.remote.baseURL == "https://api.themoviedb.org/3/")
        #expect(configuration.cache.maxBytes == 536_870_912)
    }

    @Test func laterKeysOverrideEarlierOnes() throws {
        let text = "[Daemon]\nMaxConnections=5\n[Remote]\nMaxRetries=1\n[Daemon]\nMaxConnections=7\n"
        let configuration = try ConfigurationFile(contents: text, path: "/m.conf").applied(to: DaemonConfiguration())
        #expect(configuration.daemon.maxConnections == 7)
        #expect(configuration.remote.maxRetries == 1)
    }

    @Test func backslashContinuesALine() throws {
        let text = "[Remote]\nLanguage=\\\n  en-US\nMaxRetries=3\n"
        let file = try ConfigurationFile(contents: text, path: "/m.conf")
        #expect(file.entries.map(\.line) == [2, 4])
        let configuration = try file.applied(to: DaemonConfiguration())
        #expect(configuration.remote.language == "en-US")
        #expect(configuration.remote.maxRetries == 3)
    }

    /// Found by scripts/fuzz (config): "\r\n" is one Character, so a file saved with Windows line
    /// endings was read as one line and refused ("malformed section header '[Daemon]\r\nLogLevel=…").
    @Test func windowsLineEndingsAreLineEndings() throws {
        let text = "# edited elsewhere\r\n[Daemon]\r\nLogLevel=warning\r\n\r\n[Remote]\r\nLanguage=\\\r\n  de-DE\r\nMaxRetries=1\r\n"
        let file = try ConfigurationFile(contents: text, path: "/m.conf")
        #expect(file.entries.map(\.line) == [3, 6, 8])
        let configuration = try file.applied(to: DaemonConfiguration())
        #expect(configuration.daemon.logLevel == .warning)
        #expect(configuration.remote.language == "de-DE")
        #expect(configuration.remote.maxRetries == 1)
    }

    /// Found by scripts/fuzz (config): user text quoted in an error kept its control characters, so a
    /// bad line could end or rewrite the error line on a terminal or in the journal.
    @Test(arguments: [
        ("[Daemon]\nFoo\u{1B}[2J=1\n", "moviesd: /m.conf:2: unknown key 'Foo\\u{1B}[2J' in section [Daemon]"),
        ("[Daemon]\nLogLevel=loud\rok\n", "moviesd: /m.conf:2: invalid value 'loud\\u{D}ok' for LogLevel in section [Daemon]: expected one of debug, info, notice, warning, error"),
        ("[Dae\u{202E}mon]\n", "moviesd: /m.conf:1: unknown section [Dae\\u{202E}mon]; did you mean [Daemon]?"),
        ("[Da\u{202E}x]\n", "moviesd: /m.conf:1: unknown section [Da\\u{202E}x] (expected one of [Daemon], [Remote], [Cache], [Refresh], [Users], [Catalogue])"),
        ("[Daemon]\nMaxConnections=\t5x\n", "moviesd: /m.conf:2: invalid value '5x' for MaxConnections in section [Daemon]: expected an integer between 1 and 1000000"),
    ])
    func controlCharactersInQuotedTextAreEscaped(text: String, expected: String) {
        do {
            _ = try ConfigurationFile(contents: text, path: "/m.conf").applied(to: DaemonConfiguration())
            Issue.record("accepted \(text.debugDescription)")
        } catch {
            #expect(error.description == expected)
            #expect(!error.description.unicodeScalars.contains { $0.properties.generalCategory == .control })
        }
    }

    @Test func shippedExampleFileParsesToTheDefaults() throws {
        let path = #filePath.replacingOccurrences(of: "Tests/MoviesDaemonTests/ConfigurationFileTests.swift", with: "etc/moviesd.conf")
        let file = try ConfigurationFile.load(path: path)
        #expect(file.entries.isEmpty)
        let uncommented = try String(contentsOfFile: path, encoding: .utf8)
            .split(separator: "\n")
            .map { $0.hasPrefix("#") && $0.contains("=") && !$0.contains(" ") ? String($0.dropFirst()) : String($0) }
            .joined(separator: "\n")
        let documented = try ConfigurationFile(contents: uncommented, path: path)
        // The shipped file stays as released (ShippedConfigurationStabilityTests): settings added
        // since are documented in moviesd.conf(5) alone.
        let addedSince = ConfigurationSchema.settings.filter { $0.section == "Users" || $0.section == "Catalogue" || "\($0.section).\($0.key)" == "Daemon.EventLoops" }
        let manual = try String(contentsOfFile: path.replacingOccurrences(of: "etc/moviesd.conf", with: "man/moviesd.conf.5"), encoding: .utf8)
        for setting in addedSince { #expect(manual.contains(".B \(setting.key)="), "moviesd.conf(5) lacks \(setting.key)=") }
        let listed = Set(ConfigurationSchema.settings.map { "\($0.section).\($0.key)" }).subtracting(addedSince.map { "\($0.section).\($0.key)" })
        #expect(Set(documented.entries.map { "\($0.section).\($0.key)" }) == listed)
        let defaults = DaemonConfiguration()
        var applied = try documented.applied(to: defaults)
        applied.daemon.socketPath = nil
        applied.daemon.databasePath = nil
        applied.daemon.authorizedGroup = nil
        #expect(applied.origins.count == listed.count)
        applied.origins = [:]
        #expect(applied == defaults)
    }

    @Test(arguments: [
        ("[Daemon]\nFoo=1\n", "moviesd: /etc/m.conf:2: unknown key 'Foo' in section [Daemon]"),
        ("# c\n[Nope]\n", "moviesd: /etc/m.conf:2: unknown section [Nope] (expected one of [Daemon], [Remote], [Cache], [Refresh], [Users], [Catalogue])"),
        ("MaxConnections=3\n", "moviesd: /etc/m.conf:1: key 'MaxConnections' is outside of any section (add [Daemon] above it)"),
        ("RequestsPerSecond=3\n", "moviesd: /etc/m.conf:1: key 'RequestsPerSecond' is outside of any section (add [Remote] or [Refresh] above it)"),
        ("Frobnicate=3\n", "moviesd: /etc/m.conf:1: key 'Frobnicate' is outside of any section (add [Daemon], [Remote], [Cache], [Refresh], [Users] or [Catalogue] above it)"),
        ("[Daemon]\nMaxConection=3\n", "moviesd: /etc/m.conf:2: unknown key 'MaxConection' in section [Daemon]; did you mean 'MaxConnections'?"),
        ("[Daemon]\nloglevel=debug\n", "moviesd: /etc/m.conf:2: unknown key 'loglevel' in section [Daemon]; did you mean 'LogLevel'?"),
        ("[Daemon]\nLanguage=de-DE\n", "moviesd: /etc/m.conf:2: unknown key 'Language' in section [Daemon]: Language= is a key of [Remote]"),
        ("[Cache]\nDeadlineSec=3\n", "moviesd: /etc/m.conf:2: unknown key 'DeadlineSec' in section [Cache]: DeadlineSec= is a key of [Remote] and [Refresh]"),
        ("[Remtoe]\nURL=x\n", "moviesd: /etc/m.conf:1: unknown section [Remtoe]; did you mean [Remote]?"),
        ("[Daemon]\n\njust words\n", "moviesd: /etc/m.conf:3: expected 'Key=Value', '[Section]' or a comment, got 'just words'"),
        ("[Daemon\n", "moviesd: /etc/m.conf:1: malformed section header '[Daemon' (expected [Section])"),
        ("[Daemon]\n=3\n", "moviesd: /etc/m.conf:2: missing key before '='"),
        ("[Remote]\nURL=https://api.themoviedb.org/3/\n", nil),
    ] as [(String, String?)])
    func badLinesGiveOneLineErrorsWithFileAndLine(text: String, expected: String?) {
        do {
            _ = try ConfigurationFile(contents: text, path: "/etc/m.conf")
            #expect(expected == nil)
        } catch {
            #expect(error.description == expected)
            #expect(!error.description.contains("\n"))
        }
    }

    @Test(arguments: [
        ("[Daemon]\nMaxConnections=lots\n", "moviesd: /etc/m.conf:2: invalid value 'lots' for MaxConnections in section [Daemon]: expected an integer between 1 and 1000000"),
        ("[Cache]\nHonorRemoteMaxAge=maybe\n", "moviesd: /etc/m.conf:2: invalid value 'maybe' for HonorRemoteMaxAge in section [Cache]: expected a boolean (yes or no)"),
        ("[Daemon]\nSocketMode=999\n", "moviesd: /etc/m.conf:2: invalid value '999' for SocketMode in section [Daemon]: expected an octal file mode such as 0660"),
        ("[Daemon]\nLogLevel=loud\n", "moviesd: /etc/m.conf:2: invalid value 'loud' for LogLevel in section [Daemon]: expected one of debug, info, notice, warning, error"),
        ("[Daemon]\nSocket=relative/path\n", "moviesd: /etc/m.conf:2: invalid value 'relative/path' for Socket in section [Daemon]: expected an absolute path"),
        ("[Remote]\n\nURL=ftp://example.com/\n", "moviesd: /etc/m.conf:3: invalid value 'ftp://example.com/' for URL in section [Remote]: expected an http or https URL such as https://api.themoviedb.org/3/"),
    ])
    func badValuesNameKeySectionAndLine(text: String, expected: String) throws {
        let file = try ConfigurationFile(contents: text, path: "/etc/m.conf")
        #expect(throws: ConfigurationError.self) { try file.applied(to: DaemonConfiguration()) }
        do {
            _ = try file.applied(to: DaemonConfiguration())
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test func unreadableFileNamesThePath() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let missing = directory.file("absent.conf")
        do {
            _ = try ConfigurationFile.load(path: missing)
            Issue.record("loading a missing file succeeded")
        } catch {
            #expect(error.description == "moviesd: \(missing): cannot read configuration file: No such file or directory")
            #expect(error.exitCode == 78)
        }
    }

    /// Every section may need a key outside of one: the list is the schema's, not a copy (it once
    /// named three of the five).
    @Test func anUnknownKeyOutsideOfAnySectionListsEverySection() {
        do {
            _ = try ConfigurationFile(contents: "NoSuchKey=1\n", path: "/m.conf")
            Issue.record("accepted a key outside of any section")
        } catch {
            for section in ConfigurationSchema.sections { #expect(error.reason.contains("[\(section)]"), "\(error.reason) lacks [\(section)]") }
        }
    }

    /// Every key of the schema, misspelt by one letter, is suggested back (the rule is the one
    /// `movies` uses for its commands and options).
    @Test(arguments: ConfigurationSchema.settings.map { ($0.section, $0.key) })
    func everyMisspeltKeyIsSuggested(section: String, key: String) {
        let misspelt = String(key.dropLast())
        do {
            _ = try ConfigurationFile(contents: "[\(section)]\n\(misspelt)=1\n", path: "/m.conf")
            Issue.record("accepted \(misspelt)")
        } catch {
            #expect(error.reason.hasSuffix("did you mean '\(key)'?"), "\(error.reason)")
        }
    }
}
