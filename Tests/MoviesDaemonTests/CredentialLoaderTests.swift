import Glibc
import Testing
@testable import MoviesDaemon

@Suite struct CredentialLoaderTests {
    @Test func credentialsDirectoryWinsAndIsTrimmed() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        try directory.write("tmdb-token", "  file-token\n")
        let environment = ["CREDENTIALS_DIRECTORY": directory.path, "MOVIESD_TMDB_TOKEN": "env-token", "MOVIESD_TMDB_API_KEY": "env-key"]
        #expect(try CredentialLoader.load(environment: environment) == .bearer("file-token"))
    }

    @Test func tokenEnvironmentBeatsAPIKey() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let environment = ["CREDENTIALS_DIRECTORY": directory.path, "MOVIESD_TMDB_TOKEN": " env-token ", "MOVIESD_TMDB_API_KEY": "env-key"]
        #expect(try CredentialLoader.load(environment: environment) == .bearer("env-token"))
    }

    @Test func apiKeyIsTheLastResort() throws {
        #expect(try CredentialLoader.load(environment: ["MOVIESD_TMDB_TOKEN": "  ", "MOVIESD_TMDB_API_KEY": "k3y"]) == .apiKey("k3y"))
        #expect(try CredentialLoader.load(environment: [:]) == LoadedCredential.none)
    }

    @Test func unreadableCredentialFileFailsNamingTheFile() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        try directory.makeDirectory("tmdb-token")
        let path = directory.file("tmdb-token")
        do {
            _ = try CredentialLoader.load(environment: ["CREDENTIALS_DIRECTORY": directory.path, "MOVIESD_TMDB_TOKEN": "secret-env"])
            Issue.record("a directory was read as a credential")
        } catch {
            #expect(error.message.hasPrefix("moviesd: \(path): cannot read TMDB credential: "))
            #expect(!error.message.contains("secret-env"))
        }
    }
}
