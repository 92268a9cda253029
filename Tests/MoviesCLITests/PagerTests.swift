@testable import MoviesCLI
import MoviesDomain
import Testing

/// Long output on a terminal goes through the pager (issue 28, item 9), as git's does: never when
/// piped, with `--json` or `--no-pager`; `MOVIES_PAGER` before `PAGER` before `less -FRX`; a pager
/// that cannot start leaves the output to be written directly.
@Suite struct PagerTests {
    typealias Harness = MoviesCommandLineTests.Harness

    /// A harness on a terminal of 80 columns and `rows` rows.
    static func onTerminal(rows: Int = 10, environment: [String: String] = [:]) -> Harness {
        let harness = Harness()
        harness.terminal = TerminalCapabilities(isTTY: true, width: 80, usesColor: false, height: rows)
        for (key, value) in environment { harness.environment[key] = value }
        return harness
    }

    @Test func theCommandComesFromMoviesPagerThenPagerThenLess() {
        #expect(Pager.command(environment: [:]) == "less -FRX")
        #expect(Pager.command(environment: ["PAGER": "more"]) == "more")
        #expect(Pager.command(environment: ["PAGER": "more", "MOVIES_PAGER": "most -s"]) == "most -s")
        #expect(Pager.command(environment: ["PAGER": ""]) == nil)
        #expect(Pager.command(environment: ["PAGER": "less", "MOVIES_PAGER": " "]) == nil)
        #expect(Pager.command(environment: ["PAGER": "cat"]) == nil)
    }

    @Test func longOutputOnATerminalGoesThroughThePager() {
        let harness = Self.onTerminal(environment: ["PAGER": "my-pager"])
        #expect(harness.run("--help") == .success)
        #expect(harness.paged.count == 1)
        #expect(harness.paged.first?.command == "my-pager")
        #expect(harness.paged.first?.text.contains("Commands:") == true)
        #expect(harness.output.text.isEmpty, "nothing written around the pager")
    }

    @Test func shortOutputIsWrittenDirectly() {
        let harness = Self.onTerminal(rows: 500)
        #expect(harness.run("--help") == .success)
        #expect(harness.paged.isEmpty)
        #expect(harness.output.text.contains("Commands:"))
    }

    @Test(arguments: [["--no-pager", "--help"], ["help", "search", "--no-pager"], ["--json", "--help"]])
    func noPagerWhenAsked(arguments: [String]) {
        let harness = Self.onTerminal()
        #expect(harness.run(arguments) == .success)
        #expect(harness.paged.isEmpty)
        #expect(!harness.output.text.isEmpty)
    }

    @Test func neverWhenStandardOutputIsNotATerminal() {
        let harness = Harness()
        harness.terminal = TerminalCapabilities(isTTY: false, width: 80, usesColor: false, height: 5)
        #expect(harness.run("--help") == .success)
        #expect(harness.paged.isEmpty)
        #expect(harness.output.text.contains("Commands:"))
    }

    @Test func aPagerThatCannotStartLeavesTheOutputToTheTerminal() {
        let harness = Self.onTerminal()
        harness.pagerStarts = false
        #expect(harness.run("--help") == .success)
        #expect(harness.output.text.contains("Commands:"))
    }

    @Test func aLongSearchIsPagedOnceFinalAndAShortOneNever() {
        let movies = (1...20).map { Fixtures.movie($0, "Movie \($0)") }
        let harness = Self.onTerminal()
        harness.client.searchScripts[1] = .init(replies: [
            Fixtures.search(Fixtures.page(1, of: 1, movies), Fixtures.cached(age: 60)),
            Fixtures.search(Fixtures.page(1, of: 1, movies), Fixtures.network),
        ])
        #expect(harness.run("search", "movie") == .success)
        #expect(harness.paged.count == 1, "the cached page is not drawn, the final one is paged once")
        #expect(harness.paged.first?.text.contains("Movie 20") == true)
        #expect(harness.paged.first?.text.contains("\u{1B}[") == false, "no cursor movement into the pager")
        let short = Self.onTerminal(rows: 40)
        short.client.searchScripts[1] = .init(replies: [Fixtures.search(Fixtures.page(1, of: 1, movies), Fixtures.network)])
        #expect(short.run("search", "movie") == .success)
        #expect(short.paged.isEmpty)
        #expect(short.output.text.contains("Movie 20"))
    }
}
