import Foundation
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Networking
import Testing

/// The account adapter's writes: one attempt each (the outbox retries), and delivered only when
/// TMDB's body confirms the change.
@Suite struct TMDBAccountRemoteTests {
    static let session = AccountSession(sessionID: "s3cr3t-session", accountID: 22011, username: "u")

    func remote(_ transport: FakeHTTPTransport) -> TMDBAccountRemote {
        let configuration = TMDBRemoteConfiguration(credential: .bearer("token"), retryPolicy: RetryPolicy(random: { 0 }))
        return TMDBAccountRemote(
            configuration: configuration, transport: transport, rateLimiter: TokenBucketRateLimiter(requestsPerSecond: 1000),
            timeSource: TestClock().timeSource)
    }

    static func edit() throws -> AccountEdit { try AccountEdit(movieID: 603, change: .watchlist(true)) }

    @Test(arguments: [
        (#"{"success":true,"status_code":1,"status_message":"Success."}"#, 1),
        (#"{"success":true,"status_code":12,"status_message":"The item/record was updated successfully."}"#, 12),
        (#"{"status_code":13,"status_message":"The item/record was deleted successfully."}"#, 13),
        (#"{"success":true}"#, 1),
    ])
    func aConfirmedWriteReturnsTMDBsCode(body: String, code: Int) async throws {
        let transport = FakeHTTPTransport([FakeHTTPTransport.json(200, body)])
        #expect(try await remote(transport).send(try Self.edit(), session: Self.session) == code)
    }

    @Test(arguments: ["<html>gateway</html>", "", #"{"status_code":1"#, #"{"success":false,"status_code":1}"#, #"{"status_message":"?"}"#])
    func aTwoHundredThatDoesNotConfirmTheWriteStaysPending(body: String) async throws {
        let transport = FakeHTTPTransport([FakeHTTPTransport.json(200, body)])
        do {
            _ = try await remote(transport).send(try Self.edit(), session: Self.session)
            Issue.record("an unconfirmed write must not count as delivered")
        } catch let error as MoviesError {
            #expect(error.code == .invalidResponse)
            #expect(error.httpStatus == 200)
            #expect(!error.message.contains(Self.session.sessionID))
            #expect(AccountFailure.classify(error) == .retry(isGlobal: false, afterSeconds: nil))
        }
    }

    @Test func aWriteIsSentOnceEvenWhenTMDBAnswers500() async throws {
        let transport = FakeHTTPTransport([FakeHTTPTransport.json(500, #"{"status_code":11,"status_message":"Internal error."}"#)])
        await #expect(throws: MoviesError.self) { try await remote(transport).send(try Self.edit(), session: Self.session) }
        #expect(transport.requestCount == 1, "no retry within the call: the outbox retries")
    }

    @Test func aListPullIsOneAttemptToo() async throws {
        let transport = FakeHTTPTransport([FakeHTTPTransport.json(500, #"{"status_code":11}"#)])
        await #expect(throws: MoviesError.self) { try await remote(transport).listPage(.watchlist, session: Self.session, page: 1) }
        #expect(transport.requestCount == 1, "an edit behind this pull does not wait for retries")
    }
}
