import FoundationEssentials
@testable import MoviesCLI
import MoviesDomain
import MoviesWire
import Testing
import Varlink

/// The `--json` contract (issue 28): one line per answer, the final one; `--stream` every update,
/// marked; a stale answer is an answer with `freshness.remoteError`; a failure, usage errors
/// included, is one error line with the real exit code.
@Suite struct JSONContractTests {
    typealias Harness = MoviesCommandLineTests.Harness

    @Test func jsonPrintsOnlyTheFinalAnswer() {
        let harness = Harness()
        let cached = Fixtures.search(Fixtures.page(1, of: 1, [Fixtures.movie(1, "Old")]), Fixtures.cached(age: 60))
        let fresh = Fixtures.search(Fixtures.page(1, of: 1, [Fixtures.movie(1, "New")]), Fixtures.network)
        harness.client.searchScripts[1] = .init(replies: [cached, fresh])
        #expect(harness.run("search", "x", "--json") == .success)
        #expect(harness.output.text == MockMoviesClient.json(fresh) + "\n")
    }

    @Test func streamPrintsEveryUpdateMarkedCachedThenFinal() throws {
        let harness = Harness()
        let cached = Fixtures.search(Fixtures.page(1, of: 1, [Fixtures.movie(1, "Old")]), Fixtures.cached(age: 60))
        let fresh = Fixtures.search(Fixtures.page(1, of: 1, [Fixtures.movie(1, "New")]), Fixtures.network)
        harness.client.searchScripts[1] = .init(replies: [cached, fresh])
        // --stream implies --json.
        #expect(harness.run("search", "x", "--stream") == .success)
        let lines = try harness.output.text.split(separator: "\n").map { try JSONValue.parse(Array($0.utf8)) }
        #expect(lines.map { $0["update"]?.stringValue } == ["cached", "final"])
        #expect(lines.map { $0["freshness"]?["origin"]?.stringValue } == ["cache", "network"])
        #expect(lines[1]["page"]?["movies"]?.arrayValue?.first?["title"]?.stringValue == "New")
    }

    @Test func refreshJSONPrintsTheSummaryAndStreamsProgress() throws {
        let progress = RefreshProgress(watchlist: "films", step: "search \"matrix\" page 1", done: 1, failed: 0, skipped: 0, total: 2)
        let script = MockMoviesClient.Script<RefreshReply>(replies: [
            RefreshReply(progress: progress),
            RefreshReply(progress: progress, summary: RefreshSummary(done: 2, failed: 0, skipped: 0, durationSeconds: 0.5, finishedAt: Fixtures.fetchedAt)),
        ], error: nil)
        let plain = Harness()
        plain.client.refreshScript = script
        #expect(plain.run("refresh", "--json") == .success)
        #expect(plain.output.text.split(separator: "\n").count == 1)
        #expect(try JSONValue.parse(Array(plain.output.text.utf8))["summary"]?["done"]?.intValue == 2)
        let streaming = Harness()
        streaming.client.refreshScript = script
        #expect(streaming.run("refresh", "--stream") == .success)
        let updates = try streaming.output.text.split(separator: "\n").map { try JSONValue.parse(Array($0.utf8))["update"]?.stringValue }
        #expect(updates == ["progress", "final"])
    }

    @Test(arguments: [false, true])
    func aStaleAnswerIsANormalAnswerWithRemoteErrorNeverAnErrorObject(failStale: Bool) throws {
        let harness = Harness()
        let cached = Fixtures.search(Fixtures.page(1, of: 1, [Fixtures.movie(1, "Kept")]), Fixtures.cached(age: 60, stale: true))
        harness.client.searchScripts[1] = .init(replies: [cached], error: .remoteUnavailable("rate limited", retryAfterSeconds: 5))
        let code = harness.run(["search", "x", "--json"] + (failStale ? ["--fail-stale"] : []))
        #expect(code == (failStale ? .temporaryFailure : .success))
        let lines = harness.output.text.split(separator: "\n").map(String.init)
        #expect(lines.count == 1)
        let answer = try #require(lines.first.map { try JSONValue.parse(Array($0.utf8)) })
        #expect(answer["error"] == nil)
        #expect(answer["freshness"]?["remoteError"]?.stringValue == "rate limited")
        #expect(answer["page"]?["movies"]?.arrayValue?.first?["title"]?.stringValue == "Kept")
        #expect(harness.errors.text.contains("warning: showing cached data"))
    }

    @Test func aStaleAnswerThatSaysItsRemoteErrorKeepsIt() throws {
        let harness = Harness()
        var freshness = Fixtures.cached(age: 60, stale: true)
        freshness.remoteError = "TMDB refused the connection"
        let cached = Fixtures.search(Fixtures.page(1, of: 1, [Fixtures.movie(1, "Kept")]), Fixtures.cached(age: 60, stale: true))
        let final = Fixtures.search(Fixtures.page(1, of: 1, [Fixtures.movie(1, "Kept")]), freshness)
        harness.client.searchScripts[1] = .init(replies: [cached, final])
        #expect(harness.run("search", "x", "--stream") == .success)
        let lines = try harness.output.text.split(separator: "\n").map { try JSONValue.parse(Array($0.utf8)) }
        #expect(lines.map { $0["update"]?.stringValue } == ["cached", "final"])
        #expect(lines.last?["freshness"]?["remoteError"]?.stringValue == "TMDB refused the connection")
        #expect(lines.allSatisfy { $0["error"] == nil })
    }

    @Test(arguments: [["search", "--page", "0", "x", "--json"], ["--stream", "frobnicate"], ["--json", "show", "abc"]])
    func aUsageErrorWithJSONIsOneErrorLine(arguments: [String]) throws {
        let harness = Harness()
        #expect(harness.run(arguments) == .usage)
        let lines = harness.output.text.split(separator: "\n")
        #expect(lines.count == 1)
        let object = try JSONValue.parse(Array(harness.output.text.utf8))
        #expect(object["error"]?.stringValue == "io.moviesd.cli.UsageError")
        #expect(object["exitCode"]?.intValue == 64)
        #expect(object["message"]?.stringValue?.isEmpty == false)
        #expect(harness.errors.text.contains("--help"))
    }

    /// `--format json` given to a command without `--format` is the unknown option the usage
    /// error is about: it asks for no JSON, the error is plain text on standard error only.
    @Test(arguments: [["show", "603", "--format", "json"], ["show", "603", "--format=json"], ["--format", "json", "status"]])
    func formatJSONRejectedAsksForNoJSON(arguments: [String]) {
        let harness = Harness()
        #expect(harness.run(arguments) == .usage)
        #expect(harness.output.text.isEmpty, "\(harness.output.text)")
        #expect(harness.errors.text.contains("--format"), "\(harness.errors.text)")
    }

    @Test func formatJSONOfACommandThatHasItStillAnswersAUsageErrorInJSON() throws {
        let harness = Harness()
        #expect(harness.run("search", "x", "--format", "json", "--page", "0") == .usage)
        let object = try JSONValue.parse(Array(harness.output.text.utf8))
        #expect(object["error"]?.stringValue == "io.moviesd.cli.UsageError")
    }
}
