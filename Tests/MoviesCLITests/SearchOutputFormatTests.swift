@testable import MoviesCLI
import MoviesDomain
import MoviesWire
import Testing
import Varlink

/// Issue 46: piped `movies search` printed the table (a header row, space padding: `awk -F' · '`
/// got `[   605]`). Not on a terminal it prints one record a line, tab-separated, with no header
/// and no padding, as gh does; `--format table|tsv|json` chooses.
@Suite struct SearchOutputFormatTests {
    typealias Harness = MoviesCommandLineTests.Harness

    static func harness(tty: Bool = false) -> Harness {
        let harness = Harness()
        harness.terminal = TerminalCapabilities(isTTY: tty, width: 80, usesColor: false, height: 500)
        let movies = [Fixtures.movie(605, "The Matrix Revolutions", year: "2003", vote: 6.7), Fixtures.movie(9, "Untitled", year: nil, vote: nil)]
        harness.client.searchScripts[1] = .init(replies: [Fixtures.search(Fixtures.page(1, of: 1, movies), Fixtures.network)])
        return harness
    }

    @Test func pipedSearchPrintsTabSeparatedRecordsOnly() {
        let harness = Self.harness()
        #expect(harness.run("search", "matrix") == .success)
        #expect(harness.output.text == "The Matrix Revolutions\t2003\t6.7\t605\nUntitled\t\t\t9\n")
        #expect(harness.errors.text.isEmpty, "the summary goes nowhere when standard error is not a terminal either")
    }

    @Test func theSummaryGoesToStandardErrorWhenThatIsATerminal() {
        let harness = Self.harness()
        harness.standardErrorIsTerminal = true
        #expect(harness.run("search", "matrix") == .success)
        #expect(harness.output.text.hasPrefix("The Matrix Revolutions\t"))
        #expect(harness.errors.text == "\"matrix\": 2 results, page 1 of 1 — fresh from TMDB\n")
        let quiet = Self.harness()
        quiet.standardErrorIsTerminal = true
        #expect(quiet.run("search", "matrix", "-q") == .success)
        #expect(quiet.errors.text.isEmpty)
    }

    @Test func formatChoosesTheTableOrRecordsAnywhere() {
        let table = Self.harness()
        #expect(table.run("search", "matrix", "--format", "table") == .success)
        #expect(table.output.text.contains("Title                  · Year · Rating ·  ID\n"))
        let records = Self.harness(tty: true)
        #expect(records.run("search", "matrix", "--format=tsv") == .success)
        #expect(records.output.text == "The Matrix Revolutions\t2003\t6.7\t605\nUntitled\t\t\t9\n")
        let onTerminal = Self.harness(tty: true)
        #expect(onTerminal.run("search", "matrix") == .success)
        #expect(onTerminal.output.text.contains(" · "), "a table on a terminal")
    }

    @Test func formatJSONIsJSON() throws {
        let harness = Self.harness()
        #expect(harness.run("search", "matrix", "--format", "json") == .success)
        let answer = try JSONValue.parse(Array(harness.output.text.utf8))
        #expect(answer["page"]?["movies"]?.arrayValue?.count == 2)
    }

    @Test(arguments: [
        (["search", "x", "--format", "csv"], "--format takes table, tsv or json, not 'csv'"),
        (["search", "x", "--format", "tvs"], "did you mean 'tsv'?"),
        (["search", "x", "--format", "tsv", "--json"], "choose one of --json and --format tsv"),
        (["show", "603", "--format", "tsv"], "it is an option of 'movies search' and 'movies recent'"),
    ])
    func badFormats(arguments: [String], fragment: String) {
        let harness = Self.harness()
        #expect(harness.run(arguments) == .usage)
        #expect(harness.errors.text.contains(fragment), "\(harness.errors.text)")
    }

    @Test func aTitleWithATabStaysOneField() {
        #expect(SearchResultsTerminalView.records([MoviesListItemViewModel(movie: Fixtures.movie(1, "A\tB\nC"))]) == ["A B C\t1999\t8.2\t1"])
    }

    @Test func recentPipedPrintsQueriesOnlyAndItsFormatIsChosen() throws {
        let empty = Harness()
        #expect(empty.run("recent") == .success)
        #expect(empty.output.text.isEmpty, "no 'No recent queries.' line for a script to read as a query")
        let table = Harness()
        #expect(table.run("recent", "--format", "table") == .success)
        #expect(table.output.text == "No recent queries.\n")
        let json = Harness()
        json.client.recentResult = .success(RecentQueriesReply(queries: ["alien"]))
        #expect(json.run("recent", "--format", "json") == .success)
        #expect(try JSONValue.parse(Array(json.output.text.utf8))["queries"] == .array([.string("alien")]))
    }
}
