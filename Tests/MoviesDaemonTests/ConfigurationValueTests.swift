import Testing
@testable import MoviesDaemon

@Suite struct ConfigurationValueTests {
    @Test(arguments: [
        ("30", 30), ("30s", 30), ("5min", 300), ("2h", 7200), ("1d", 86400), ("1w", 604_800),
        ("1h 30min", 5400), ("1h30min", 5400), ("2 days", 172_800), ("90sec", 90), ("0", 0),
    ])
    func durations(text: String, seconds: Int) throws {
        #expect(try ConfigurationValue.durationSeconds(text, in: 0...Int.max) == seconds)
    }

    @Test(arguments: ["", "5 parsecs", "min", "-3", "1.5h", "h1", "99999999999999999999d"])
    func badDurations(text: String) {
        #expect(throws: ConfigurationValueError.self) { try ConfigurationValue.durationSeconds(text, in: 0...Int.max) }
    }

    @Test func durationRangeIsEnforced() {
        #expect(throws: ConfigurationValueError.self) { try ConfigurationValue.durationSeconds("0", in: 1...Int.max) }
    }

    @Test(arguments: [
        ("yes", true), ("YES", true), ("true", true), ("on", true), ("1", true),
        ("no", false), ("false", false), ("Off", false), ("0", false),
    ])
    func booleans(text: String, value: Bool) throws {
        #expect(try ConfigurationValue.boolean(text) == value)
    }

    @Test(arguments: ["", "2", "nope", "yess"])
    func badBooleans(text: String) {
        #expect(throws: ConfigurationValueError.self) { try ConfigurationValue.boolean(text) }
    }

    @Test func sizesAndModes() throws {
        #expect(try ConfigurationValue.byteCount("512M", in: 0...Int64.max) == 536_870_912)
        #expect(try ConfigurationValue.byteCount("2k", in: 0...Int64.max) == 2048)
        #expect(try ConfigurationValue.byteCount("17", in: 0...Int64.max) == 17)
        #expect(throws: ConfigurationValueError.self) { try ConfigurationValue.byteCount("1X", in: 0...Int64.max) }
        #expect(try ConfigurationValue.octalMode("0660") == 0o660)
        #expect(try ConfigurationValue.octalMode("600") == 0o600)
        #expect(throws: ConfigurationValueError.self) { try ConfigurationValue.octalMode("0800") }
    }

    @Test func baseURLGetsATrailingSlashAndRejectsOtherSchemes() throws {
        #expect(try ConfigurationValue.baseURL("https://api.themoviedb.org/3") == "https://api.themoviedb.org/3/")
        #expect(try ConfigurationValue.baseURL("http://127.0.0.1:9/3/") == "http://127.0.0.1:9/3/")
        #expect(throws: ConfigurationValueError.self) { try ConfigurationValue.baseURL("file:///etc/passwd") }
        #expect(throws: ConfigurationValueError.self) { try ConfigurationValue.baseURL("https://example.com/3/?api_key=x") }
        #expect(throws: ConfigurationValueError.self) { try ConfigurationValue.baseURL("not a url") }
    }

    @Test func authorizedGroupIsANameOrAGid() throws {
        #expect(try AuthorizedGroup(parsing: "1000") == .id(1000))
        #expect(try AuthorizedGroup(parsing: "movie-fans") == .name("movie-fans"))
        #expect(throws: ConfigurationValueError.self) { try AuthorizedGroup(parsing: "bad group") }
        #expect(throws: ConfigurationValueError.self) { try AuthorizedGroup(parsing: "-x") }
        #expect(AuthorizedGroup.id(42).groupID() == 42)
        #expect(AuthorizedGroup.name("root").groupID() == 0)
        #expect(AuthorizedGroup.name("no-such-group-moviesd").groupID() == nil)
    }
}

/// `[Remote] Language=` is the default `language` of every search: only tags a `Search` call takes.
@Suite struct ConfigurationLanguageTests {
    @Test func languageTagsAreThoseASearchTakes() throws {
        #expect(try ConfigurationValue.language("") == nil)
        #expect(try ConfigurationValue.language("de-DE") == "de-DE")
        #expect(try ConfigurationValue.language("fr") == "fr")
        for bad in ["english", "e", "de_DE", "zh-Hans-CN", "1a"] {
            #expect(throws: ConfigurationValueError.self, "\(bad)") { try ConfigurationValue.language(bad) }
        }
    }
}
