import FoundationEssentials
@testable import MoviesCLI
import MoviesDomain
import Testing

@Suite struct RefreshCommandTests {
    typealias Harness = MoviesCommandLineTests.Harness

    static func scripted(_ harness: Harness, failed: Int = 0) {
        harness.client.refreshScript = .init(replies: [
            RefreshViewModelTests.progress(1, of: 2),
            RefreshViewModelTests.summary(done: 2 - failed, failed: failed, error: failed > 0 ? "TMDB is unreachable" : nil),
        ], error: nil)
    }

    @Test func quietPrintsNothingOnSuccessEvenOnATerminal() {
        let harness = Harness()
        harness.terminal = TerminalCapabilities(isTTY: true, width: 80, usesColor: false)
        Self.scripted(harness)
        #expect(harness.run("refresh", "--quiet") == .success)
        #expect(harness.output.text.isEmpty)
        #expect(harness.errors.text.isEmpty)
    }

    @Test func withoutATerminalOnlyErrorsArePrinted() {
        let harness = Harness()
        Self.scripted(harness, failed: 1)
        #expect(harness.run("refresh", "films") == .temporaryFailure)
        #expect(harness.output.text.isEmpty)
        #expect(harness.errors.text == "movies: refresh: 1 of 2 steps failed: TMDB is unreachable\n")
        #expect(harness.client.refreshedNames == ["films"])
    }

    @Test func aTerminalGetsAProgressBarAndASummary() {
        let harness = Harness()
        harness.terminal = TerminalCapabilities(isTTY: true, width: 80, usesColor: false)
        Self.scripted(harness)
        #expect(harness.run("refresh") == .success)
        #expect(harness.output.text.contains("\r\u{1B}[K[") && harness.output.text.contains("1/2 movie 1"))
        #expect(harness.output.text.hasSuffix("Checked 2 entries in 1.3 s: 2 fetched.\n"))
        #expect(harness.client.refreshedAll == [false], "what is due, unless --all")
        #expect(harness.run("refresh", "--all", "--quiet") == .success)
        #expect(harness.client.refreshedAll == [false, true])
    }

    @Test func takesAtMostOneName() {
        let harness = Harness()
        #expect(harness.run("refresh", "a", "b") == .usage)
    }
}
