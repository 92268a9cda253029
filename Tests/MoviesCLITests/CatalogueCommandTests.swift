import FoundationEssentials
@testable import MoviesCLI
import MoviesDomain
import MoviesWire
import Testing
import Varlink

/// The catalogue in the CLI: `movies catalogue update`, its line in `movies status`, catalogue
/// titles marked "not cached" on a terminal (and `catalogue` in `--json`), and what `movies show`
/// says of a movie known only from it.
@Suite struct CatalogueCommandTests {
    typealias Harness = MoviesCommandLineTests.Harness

    static let summary = CatalogueImportSummary(
        exportDate: "2026-03-05", titles: 1_034_467, added: 357, removed: 415, retitled: 2_030, skipped: 43_358)

    @Test func updateSaysWhatChangedAndJSONIsTheReply() throws {
        let harness = Harness()
        harness.client.catalogueResult = .success(CatalogueUpdateReply(summary: Self.summary))
        #expect(harness.run("catalogue", "update") == .success)
        #expect(harness.output.text == "Imported TMDB's export of 2026-03-05: 1034467 titles (357 new, 415 removed, 2030 changed; 43358 adult or video entries left out).\n")
        let json = Harness()
        json.client.catalogueResult = .success(CatalogueUpdateReply(summary: Self.summary))
        #expect(json.run("catalogue", "update", "--json") == .success)
        let line = try JSONValue.parse(Array(json.output.text.utf8))
        #expect(line["summary"]?["added"] == .int(357))
    }

    @Test func aFailedUpdateSaysWhyWithItsExitCode() {
        let harness = Harness()
        let failure = VarlinkErrorMapping.clientError(
            name: "io.moviesd.Movies.CatalogueFailed",
            parameters: VarlinkErrorMapping.Parameters(strings: ["code": "export_not_found", "reason": "No export was found for 2026-03-05."]),
            method: "UpdateCatalogue")
        harness.client.catalogueResult = .failure(failure)
        #expect(harness.run("catalogue", "update") == .temporaryFailure)
        #expect(harness.errors.text.contains("No export was found for 2026-03-05"))
        let full = VarlinkErrorMapping.clientError(
            name: "io.moviesd.Movies.CatalogueFailed", parameters: VarlinkErrorMapping.Parameters(strings: ["code": "disk_full", "reason": "The disk is full."]),
            method: "UpdateCatalogue")
        #expect(full == .storageFailure("The disk is full", fault: "full"))
    }

    @Test(arguments: [[String](), ["nothing"], ["update", "now"]])
    func onlyUpdateIsAccepted(arguments: [String]) {
        let harness = Harness()
        #expect(harness.run(["catalogue"] + arguments) == .usage)
        #expect(harness.client.catalogueUpdates == 0)
    }

    @Test func statusSaysTheCataloguesDayAndSize() {
        let harness = Harness()
        var reply = StatusReply(
            version: "1.2.3", uptimeSeconds: 5, remote: RemoteStatus(state: .online, since: nil, lastError: nil, consecutiveFailures: 0),
            cache: CacheStats(entries: 0, bytes: 0, staleEntries: 0, pinnedEntries: 0, byteBudget: 1_048_576))
        reply.catalogue = CatalogueStatus(exportDate: "2026-03-05", titles: 1_034_467, importedAt: Date(timeIntervalSince1970: 1_772_700_000), bytesOnDisk: 85_417_984)
        harness.client.statusResult = .success(reply)
        #expect(harness.run("status") == .success)
        #expect(harness.output.text.contains("Catalogue:    TMDB's export of 2026-03-05, 1034467 titles, 81.5 MiB, imported 2026-03-05 08:40 UTC"), "\(harness.output.text)")
        reply.catalogue = CatalogueStatus()
        harness.client.statusResult = .success(reply)
        #expect(harness.run("status") == .success)
        #expect(harness.output.text.contains("Catalogue:    not imported yet (movies catalogue update)"))
    }

    @Test func catalogueTitlesAreMarkedNotCachedOnATerminalOnly() throws {
        var trek = Movie(id: 500, title: "Star Trek", originalTitle: "Star Trek", popularity: 70, catalogue: true)
        trek.releaseDate = nil
        let page = Fixtures.page(1, of: 1, [Fixtures.movie(1, "Star Wars"), trek])
        let freshness = Freshness(origin: .localIndex, fetchedAt: Date(timeIntervalSince1970: 0), ageSeconds: 60, stale: true)
        let terminal = Harness()
        terminal.terminal = TerminalCapabilities(isTTY: true, width: 100, usesColor: false)
        terminal.client.searchScripts[1] = .init(replies: [Fixtures.search(page, freshness)])
        #expect(terminal.run("search", "star", "--local") == .success)
        let lines = terminal.output.text.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("Star Trek — not cached") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("Star Wars ") && !$0.contains("not cached") })
        #expect(terminal.output.text.contains("among cached movies and the catalogue"), "\(lines)")

        let piped = Harness()
        piped.client.searchScripts[1] = .init(replies: [Fixtures.search(page, freshness)])
        #expect(piped.run("search", "star", "--local") == .success)
        #expect(!piped.output.text.contains("not cached"))
        let json = Harness()
        json.client.searchScripts[1] = .init(replies: [Fixtures.search(page, freshness)])
        #expect(json.run("search", "star", "--local", "--json") == .success)
        let reply = try JSONValue.parse(Array(json.output.text.utf8))
        guard case .array(let movies)? = reply["page"]?["movies"], movies.count == 2 else {
            Issue.record("no movies in \(reply)")
            return
        }
        #expect(movies[1]["catalogue"] == .bool(true))
        #expect(movies[0]["catalogue"] == nil)
    }

    @Test func showOfACatalogueOnlyMovieSaysWhatIsKnownAndWhenDetailsCome() {
        let harness = Harness()
        let details = MovieDetails(id: 500, title: "Star Trek", originalTitle: "Star Trek", popularity: 70.04, catalogue: true)
        let freshness = Freshness(
            origin: .localIndex, fetchedAt: Date(timeIntervalSince1970: 0), ageSeconds: 3_600, stale: true, remoteError: "TMDB is unreachable")
        harness.client.movieScript = .init(replies: [MovieReply(movie: details, freshness: freshness)], error: nil)
        #expect(harness.run("show", "500") == .success)
        let text = harness.output.text
        #expect(text.contains("Star Trek"))
        #expect(text.contains("known only from TMDB's daily list of every movie (its original title and popularity 70)"), "\(text)")
        #expect(text.contains("the details come when TMDB is reachable: run 'movies show 500' again then"), "\(text)")
        #expect(text.contains("offline — known only from the catalogue, imported 1 h ago"), "\(text)")
    }
}
