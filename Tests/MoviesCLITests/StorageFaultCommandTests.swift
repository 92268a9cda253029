import FoundationEssentials
@testable import MoviesCLI
import MoviesDomain
import MoviesWire
import Testing
import Varlink

/// The CLI shows storage faults: `status` says the database's health, `search` warns when an
/// answer could not be stored, and a `StorageFailure` is exit 74 with the daemon's advice.
@Suite struct StorageFaultCommandTests {
    typealias Harness = MoviesCommandLineTests.Harness

    static var notStored: Freshness {
        var freshness = Fixtures.network
        freshness.stored = false
        freshness.storageFault = .full
        return freshness
    }

    @Test func searchWarnsOnStderrWhenTheAnswerWasNotStored() {
        let harness = Harness()
        harness.client.searchScripts[1] = .init(replies: [Fixtures.search(Fixtures.page(1, of: 1, [Fixtures.movie(1, "New")]), Self.notStored)])
        #expect(harness.run("search", "x") == .success)
        #expect(harness.output.text.contains("New"))
        #expect(harness.errors.text.hasPrefix("movies: warning: this answer was not stored in moviesd's cache and will not be available offline (full: "))
        #expect(harness.errors.text.filter { $0 == "\n" }.count == 1)
    }

    @Test func quietSilencesTheWarningAndJSONCarriesItInTheReply() throws {
        let quiet = Harness()
        let reply = Fixtures.search(Fixtures.page(1, of: 1, [Fixtures.movie(1, "New")]), Self.notStored)
        quiet.client.searchScripts[1] = .init(replies: [reply])
        #expect(quiet.run("search", "x", "--quiet") == .success)
        #expect(quiet.errors.text.isEmpty)

        let json = Harness()
        json.client.searchScripts[1] = .init(replies: [reply])
        #expect(json.run("search", "x", "--json", "--quiet") == .success)
        let line = try JSONValue.parse(Array(json.output.text.utf8))
        #expect(line["freshness"]?["stored"] == .bool(false))
        #expect(line["freshness"]?["storageFault"] == .string("full"))
    }

    @Test func aStoredAnswerGivesNoWarning() {
        let harness = Harness()
        harness.client.searchScripts[1] = .init(replies: [Fixtures.search(Fixtures.page(1, of: 1, [Fixtures.movie(1, "New")]), Fixtures.network)])
        #expect(harness.run("search", "x") == .success)
        #expect(harness.errors.text.isEmpty)
    }

    @Test func statusShowsTheStorageHealth() {
        let harness = Harness()
        let since = Fixtures.fetchedAt.addingTimeInterval(-120)
        harness.client.statusResult = .success(StatusReply(
            version: "1.2.3", uptimeSeconds: 90,
            remote: RemoteStatus(state: .online),
            cache: CacheStats(entries: 0, bytes: 0, staleEntries: 0, pinnedEntries: 0, byteBudget: 0),
            storage: StorageHealth(state: .corrupt, since: since, lastError: "moviesd's database is damaged")))
        #expect(harness.run("status") == .success)
        #expect(harness.output.text.contains("Storage:      corrupt since 2026-11-18 11:04 UTC (2 min ago): moviesd's database is damaged"))
    }

    @Test func aStorageFailureExits74WithTheDaemonsAdviceNotThePromiseOfALog() throws {
        let error = VarlinkErrorMapping.clientError(
            name: "io.moviesd.Movies.StorageFailure",
            parameters: .init(strings: ["reason": "moviesd's database is damaged; restart moviesd", "fault": "corrupt"]), method: "Purge")
        #expect(error == .storageFailure("moviesd's database is damaged; restart moviesd", fault: "corrupt"))
        #expect(error.exitCode == .ioError)
        #expect(error.exitCode.rawValue == 74)
        #expect(!error.message.contains("log"))
        #expect(error.message.contains("restart moviesd"))

        let harness = Harness()
        harness.client.failEverything = error
        #expect(harness.run("cache", "purge", "--all", "--json") == .ioError)
        let object = try JSONValue.parse(Array(harness.output.text.utf8))
        #expect(object["error"]?.stringValue == "io.moviesd.Movies.StorageFailure")
        #expect(object["parameters"]?["fault"]?.stringValue == "corrupt")
    }
}
