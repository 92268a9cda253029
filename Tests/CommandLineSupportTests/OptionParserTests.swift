import CommandLineSupport
import Testing

/// The one option parser of `movies`, `moviesd`, `tmdb-stub` and `moviesd-bench`.
@Suite struct OptionParserTests {
    static let options: [OptionSpec] = [
        .option("--output", "-o", value: "FILE", help: "where"),
        .option("--hang", value: "SHARE", implicit: "1", help: "how often"),
        .flag("--json", help: "as JSON"),
    ]

    private func parse(_ arguments: [String]) throws(OptionParseError) -> ParsedArguments {
        try OptionParser.parse(arguments, options: Self.options)
    }

    @Test func readsValuesInEveryFormFlagsAndPositionals() throws {
        let parsed = try parse(["a", "--output", "x", "-o", "y", "--output=z=1", "--json", "-", "b"])
        #expect(parsed.values["--output"] == ["x", "y", "z=1"])
        #expect(parsed.value("--output") == "z=1")
        #expect(parsed.has("--json"))
        #expect(!parsed.has("--hang"))
        #expect(parsed.positionals == ["a", "-", "b"])
    }

    @Test func doubleDashEndsTheOptions() throws {
        let parsed = try parse(["--json", "--", "--output", "-o"])
        #expect(parsed.positionals == ["--output", "-o"])
        #expect(parsed.values.isEmpty)
    }

    @Test func anOptionIsNeverTakenAsTheValueOfTheOneBefore() {
        #expect(throws: OptionParseError.missingValue(name: "--output", valueName: "FILE")) { try parse(["--output", "--json"]) }
        #expect(throws: OptionParseError.missingValue(name: "-o", valueName: "FILE")) { try parse(["-o"]) }
        // A value that only starts with a dash is a value.
        #expect(throws: Never.self) { try parse(["--output", "-"]) }
    }

    @Test func anImplicitValueStandsInWhenNoneFollows() throws {
        #expect(try parse(["--hang"]).value("--hang") == "1")
        #expect(try parse(["--hang", "--json"]).value("--hang") == "1")
        #expect(try parse(["--hang", "0.5"]).value("--hang") == "0.5")
    }

    @Test func unknownOptionsAndFlagValuesAreNamed() {
        #expect(throws: OptionParseError.unknown(name: "--ouput", known: ["--output", "--hang", "--json"])) { try parse(["--ouput=x"]) }
        #expect(throws: OptionParseError.unknown(name: "-x", known: ["--output", "--hang", "--json"])) { try parse(["-x"]) }
        #expect(throws: OptionParseError.unexpectedValue(name: "--json")) { try parse(["--json=yes"]) }
    }
}

/// `recent -n3` was refused (issue 28): a short option that takes a value takes it attached too.
@Suite struct AttachedShortValueTests {
    let options: [OptionSpec] = [.option("--limit", "-n", value: "N", help: "how many"), .flag("--quiet", "-q", help: "quiet")]

    @Test func aShortOptionTakesItsValueAttached() throws {
        #expect(try OptionParser.parse(["-n3"], options: options).value("--limit") == "3")
        #expect(try OptionParser.parse(["-n", "4"], options: options).value("--limit") == "4")
        #expect(try OptionParser.parse(["-n-1"], options: options).value("--limit") == "-1")
    }

    @Test func aFlagTakesNothingAttached() {
        #expect(throws: OptionParseError.unknown(name: "-qx", known: ["--limit", "--quiet"])) { try OptionParser.parse(["-qx"], options: options) }
    }
}
