import Foundation
import MoviesTestSupport
import Testing

/// The catalogue with the real binaries (issue 43): `movies catalogue update` against the
/// stand-in's export, its titles found offline and marked, a catalogue-only movie shown and added
/// to a watchlist with TMDB down, and a daemon killed (SIGKILL) in the middle of an import that
/// starts again with the catalogue of before whole.
@Suite("The catalogue, end to end", .serialized, .blocksThreads)
struct CatalogueEndToEndTests {
    /// The size of the file at `path`, 0 when there is none.
    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// `Status`'s catalogue, as `movies status --json` gives it.
    static func status(_ sandbox: Sandbox) throws -> [String: Any]? {
        let status = try sandbox.movies(["status", "--json"])
        return JSONLines.parse(status.stdout).last?["catalogue"] as? [String: Any]
    }

    @Test("update, search offline, show and keep a catalogue-only movie, and a SIGKILL mid-import")
    func catalogueEndToEnd() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.shutdown() }
        try sandbox.startStub(["--export-size", "3000"])
        try sandbox.startDaemon()

        let update = try sandbox.movies(["catalogue", "update"], timeout: 120)
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stdout.hasPrefix("Imported TMDB's export of "), "\(update.stdout)")
        let before = try #require(try Self.status(sandbox))
        let titles = try #require(before["titles"] as? Int)
        #expect(titles > 2_000)

        // Offline: the catalogue's titles are found, marked; a movie known only from it (Inception,
        // which the stand-in's API serves too, as TMDB's export lists TMDB's movies) shown and kept.
        try await sandbox.setFaults(#"{"down": true}"#)
        let search = try sandbox.movies(["search", "the", "--local", "--json"])
        #expect(search.status == 0, "\(search.stderr)")
        let movies = (JSONLines.lastReply(JSONLines.parse(search.stdout))?["page"] as? [String: Any])?["movies"] as? [[String: Any]] ?? []
        let known = try #require(movies.first { $0["catalogue"] as? Bool == true }, "\(search.stdout)")
        let id = try #require(known["id"] as? Int)
        let inception = try sandbox.movies(["search", "inception", "--local", "--json"])
        let found = (JSONLines.lastReply(JSONLines.parse(inception.stdout))?["page"] as? [String: Any])?["movies"] as? [[String: Any]] ?? []
        #expect(found.contains { $0["id"] as? Int == 27205 && $0["catalogue"] as? Bool == true }, "\(inception.stdout)")
        let show = try sandbox.movies(["show", "27205"])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains("Inception") && show.stdout.contains("the details come when TMDB is reachable"), "\(show.stdout)")
        #expect(!show.stdout.contains("Cobb"), "no overview before TMDB gave it: \(show.stdout)")
        let kept = try sandbox.movies(["watchlist", "add", "later", "--movie", "27205"])
        #expect(kept.status == 0, "\(kept.stderr)")

        // TMDB back: the refresh fetches it, and it shows offline with its details.
        try await sandbox.setFaults(#"{"down": false}"#)
        let refresh = try sandbox.movies(["refresh"], timeout: 120)
        #expect(refresh.status == 0, "\(refresh.stdout) \(refresh.stderr)")
        try await sandbox.setFaults(#"{"down": true}"#)
        let details = try sandbox.movies(["show", "27205", "--offline"])
        #expect(details.status == 0 && details.stdout.contains("Cobb") && !details.stdout.contains("Not cached"), "\(details.stdout) \(details.stderr)")
        // And as a user asks, with the default policy: the cached details answer at once, and TMDB
        // failing after them leaves them the answer, not the catalogue's title.
        let asked = try sandbox.movies(["show", "27205", "--json"])
        let final = JSONLines.lastReply(JSONLines.parse(asked.stdout)) ?? [:]
        let movie = final["movie"] as? [String: Any] ?? [:]
        #expect(asked.status == 0 && (movie["overview"] as? String)?.contains("Cobb") == true && movie["catalogue"] as? Bool != true,
                "\(asked.stdout) \(asked.stderr)")

        // A bigger export, and the daemon killed while it imports it: staging (the incoming file
        // grows) or the swap (the catalogue's WAL grows), whichever is seen first.
        try await sandbox.setFaults(#"{"down": false}"#)
        sandbox.daemon?.stop()
        sandbox.stub?.stop()
        try sandbox.startStub(["--export-size", "200000"])
        try sandbox.startDaemon()
        let path = sandbox.directory.appendingPathComponent("catalogue.sqlite3").path
        let importing = try BackgroundProcess(
            BinaryLocator.path("movies"), ["--socket", sandbox.socketPath, "catalogue", "update"],
            environment: ["NO_COLOR": "1", "MOVIES_CONFIG": ""], logDirectory: sandbox.directory, name: "update")
        defer { importing.stop(signal: SIGKILL, timeout: 2) }
        let caught = BackgroundProcess.waitUntil(timeout: 300) {
            Self.size(path + "-incoming") > 1 << 20 || Self.size(path + "-wal") > 256 << 10 || !importing.isRunning
        }
        #expect(caught && importing.isRunning, "the import ended before it could be cut: \(importing.stdout) \(importing.stderr)")
        sandbox.daemon?.stop(signal: SIGKILL)
        #expect(BackgroundProcess.waitUntil(timeout: 10) { !importing.isRunning })

        // Started again: the catalogue of before, whole; the staging file gone.
        try sandbox.startDaemon()
        let after = try #require(try Self.status(sandbox))
        #expect(after["titles"] as? Int == titles)
        #expect(after["exportDate"] as? String == before["exportDate"] as? String)
        #expect(Self.size(path + "-incoming") == 0)
        let again = try sandbox.movies(["search", "the", "--local", "--json"])
        let ids = ((JSONLines.lastReply(JSONLines.parse(again.stdout))?["page"] as? [String: Any])?["movies"] as? [[String: Any]] ?? [])
            .compactMap { $0["id"] as? Int }
        #expect(ids.contains(id), "\(again.stdout)")
    }
}
