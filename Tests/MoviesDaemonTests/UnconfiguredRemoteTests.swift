import MoviesData
import MoviesDomain
import Testing
@testable import MoviesDaemon

/// The remote used when no TMDB credential is configured.
@Suite struct UnconfiguredRemoteTests {
    @Test func everyFetchIsRefusedSayingHowToConfigureACredential() async throws {
        for request: RemoteRequest in [.search(query: "matrix", page: 1, language: nil), .movie(id: 1, language: "en"), .configuration] {
            do {
                _ = try await UnconfiguredRemote().fetch(request, etag: nil)
                Issue.record("\(request) did not throw")
            } catch let error as MoviesError {
                #expect(error.code == .remoteRejected)
                #expect(error.isAuthRejection)
                // No request was made, so no HTTP status (it was an invented 401).
                #expect(error.httpStatus == nil)
                #expect(error.message.contains("no TMDB credential"))
                #expect(error.message.contains("MOVIESD_TMDB_TOKEN"))
            }
        }
    }

    @Test func remoteHealthReportsAMissingCredentialNotARejectedOne() async throws {
        let health = RemoteHealth(credential: .missing)
        for _ in 0..<5 {
            do {
                _ = try await UnconfiguredRemote().fetch(.configuration, etag: nil)
            } catch let error as MoviesError {
                await health.recordFailure(error)
            }
        }
        let status = await health.remoteStatus()
        #expect(status.state == .unknown)
        #expect(status.credential == .missing)
        #expect(await health.gate() == nil)
    }
}
