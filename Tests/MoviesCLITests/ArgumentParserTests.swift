@testable import MoviesCLI
import Testing

@Suite struct ArgumentParserTests {
    let spec = SearchCommand.spec

    @Test func splitsOptionsFlagsAndPositionals() throws {
        let parsed = try ArgumentParser.parse(["the", "--page", "2", "matrix", "--offline", "--max-stale=6h"], spec: spec)
        #expect(parsed.positionals == ["the", "matrix"])
        #expect(parsed.value("--page") == "2")
        #expect(parsed.value("--max-stale") == "6h")
        #expect(parsed.has("--offline"))
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try ArgumentParser.parse(["--", "--json", "-x"], spec: spec)
        #expect(parsed.positionals == ["--json", "-x"])
        #expect(!parsed.has("--json"))
    }

    @Test func globalOptionsAreAccepted() throws {
        let parsed = try ArgumentParser.parse(["q", "--json", "--socket", "/tmp/s", "-h"], spec: spec)
        #expect(parsed.has("--json"))
        #expect(parsed.has("--help"))
        #expect(parsed.value("--socket") == "/tmp/s")
    }

    @Test func unknownOptionIsNamed() {
        #expect(throws: UsageError("unknown option '--flavour' for 'movies search'", command: "search")) {
            try ArgumentParser.parse(["q", "--flavour"], spec: spec)
        }
        // A near miss of an option is suggested (--color is global since issue 28).
        #expect(throws: UsageError("unknown option '--colour' for 'movies search'; did you mean '--color'?", command: "search")) {
            try ArgumentParser.parse(["q", "--colour"], spec: spec)
        }
    }

    @Test func missingValueSaysWhatIsNeeded() {
        #expect(throws: UsageError("--page needs a value: --page N", command: "search")) {
            try ArgumentParser.parse(["q", "--page"], spec: spec)
        }
    }

    @Test func flagWithValueIsRejected() {
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["q", "--offline=yes"], spec: spec) }
    }
}
