import Foundation
import MoviesData
import Testing
@testable import MoviesDaemon

/// Which daemons import the catalogue by themselves (the timer): one that talks to TMDB's own API
/// with a credential, or one told where from ([Catalogue] URL=); not one without a credential,
/// nor one pointed at a stand-in or a fleet's cache (whose tests and soaks must not download a
/// million titles behind their backs).
@Suite struct CatalogueTimerRuleTests {
    /// Whether a daemon so configured would import now (never imported: due, if its timer runs).
    static func importsByItself(remote: String, credential: LoadedCredential, url: String? = nil) async throws -> Bool {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        var configuration = DaemonConfiguration()
        configuration.remote.baseURL = remote
        if let url { configuration.catalogue.url = url }
        let paths = DaemonPaths(socketPath: directory.file("io.moviesd.Movies"), databasePath: directory.file("cache.sqlite3"))
        let container = try AppDIContainer(configuration: configuration, paths: paths, credential: credential)
        return await container.catalogueUpdater?.isDue() ?? false
    }

    @Test func onlyTMDBsOwnAPIWithACredentialOrAnExplicitURL() async throws {
        let tmdb = "https://api.themoviedb.org/3/", stub = "http://127.0.0.1:8123/3/"
        #expect(try await Self.importsByItself(remote: tmdb, credential: .bearer("token")))
        #expect(try await !Self.importsByItself(remote: tmdb, credential: .none))
        #expect(try await !Self.importsByItself(remote: stub, credential: .bearer("token")))
        #expect(try await Self.importsByItself(remote: stub, credential: .bearer("token"), url: "http://127.0.0.1:8123/p/exports/"))
        #expect(try await Self.importsByItself(remote: tmdb, credential: .none, url: "https://cache.example/exports/"))
    }
}
