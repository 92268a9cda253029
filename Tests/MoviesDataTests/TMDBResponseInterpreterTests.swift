import Foundation
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Networking
import Testing

/// How `TMDBRemote` (through its response interpreter) turns statuses, bodies and transport failures into `MoviesError`s.
@Suite struct TMDBResponseInterpreterTests {
    static let token = TMDBRemoteTests.token
    let clock = TestClock()

    // The call's deadline runs on real time (the back-off on the virtual clock): generous by
    // default, so a starved machine never cuts retries short; deadline tests pass their own.
    func failure(_ steps: [FakeHTTPTransport.Step], _ request: RemoteRequest = .movie(id: 550, language: nil), credential: Credential = .bearer(token), deadline: Double = 300) async -> (MoviesError?, FakeHTTPTransport) {
        let transport = FakeHTTPTransport(steps)
        let configuration = TMDBRemoteConfiguration(credential: credential, deadlineSeconds: deadline, retryPolicy: RetryPolicy(random: { 0 }))
        let remote = TMDBRemote(configuration: configuration, transport: transport, timeSource: clock.timeSource)
        do {
            _ = try await remote.fetch(request, etag: nil)
            return (nil, transport)
        } catch {
            return (error as? MoviesError, transport)
        }
    }

    @Test(arguments: [34, 6])
    func authoritativeNotFound(code: Int) async throws {
        let (error, transport) = await failure([FakeHTTPTransport.json(404, #"{"success":false,"status_code":\#(code),"status_message":"The resource you requested could not be found."}"#)])
        let notFound = try #require(error)
        #expect(notFound.code == .notFound && notFound.tmdbCode == code && notFound.httpStatus == 404 && notFound.movieID == 550)
        #expect(transport.requestCount == 1)
    }

    @Test func invalidCredentialIsAnAuthRejection() async throws {
        let (error, transport) = await failure([FakeHTTPTransport.json(401, #"{"status_code":7,"status_message":"Invalid API key: You must be granted a valid key.","success":false}"#)])
        let rejected = try #require(error)
        #expect(rejected.code == .remoteRejected && rejected.isAuthRejection && rejected.tmdbCode == 7 && rejected.httpStatus == 401)
        #expect(rejected.message.contains("Invalid API key"))
        #expect(transport.requestCount == 1)
    }

    @Test(arguments: [
        (400, #"{"status_code":22,"status_message":"Invalid page: Pages start at 1 and max at 500. They are expected to be an integer.","success":false}"#, 22 as Int?, "Invalid page"),
        (422, #"{"errors":["query must be provided"]}"#, nil, "query must be provided"),
        (404, "<html>Not Found</html>", nil, "HTTP 404"),
    ])
    func badRequestsAreRejectedWithTMDBsMessage(status: Int, body: String, tmdbCode: Int?, fragment: String) async throws {
        let (error, transport) = await failure([FakeHTTPTransport.json(status, body)], .search(query: "", page: 501, language: nil))
        let rejected = try #require(error)
        #expect(rejected.code == .remoteRejected && rejected.httpStatus == status && rejected.tmdbCode == tmdbCode)
        #expect(!rejected.isAuthRejection)
        #expect(rejected.message.contains(fragment))
        #expect(transport.requestCount == 1)
    }

    @Test func rateLimitedIsUnavailableAtOnceWithRetryAfter() async throws {
        let tooMany = FakeHTTPTransport.json(429, #"{"status_code":25,"status_message":"Your request count (41) is over the allowed limit of (40)."}"#, headers: ["Retry-After": "3"])
        let (error, transport) = await failure([tooMany])
        let unavailable = try #require(error)
        #expect(unavailable.code == .remoteUnavailable && unavailable.retryAfterSeconds == 3 && unavailable.httpStatus == 429)
        // Not waited out: one request, no sleep, and the message says "rate limited", not "timed out".
        #expect(transport.requestCount == 1)
        #expect(!clock.sleeps.contains(3))
        #expect(unavailable.message.contains("rate limiting"))
        #expect(!unavailable.message.contains("did not answer"))
    }

    @Test(arguments: [500, 502, 503, 504])
    func serverErrorsAreUnavailableAfterThreeAttempts(status: Int) async throws {
        let (error, transport) = await failure([FakeHTTPTransport.json(status, "<html>oops</html>")])
        #expect(error?.code == .remoteUnavailable && error?.httpStatus == status)
        #expect(transport.requestCount == 3)
    }

    @Test func serverErrorThenSuccessRecovers() async {
        let (error, transport) = await failure([FakeHTTPTransport.json(503), FakeHTTPTransport.json(200, TMDBRemoteTests.movieBody)])
        #expect(error == nil)
        #expect(transport.requestCount == 2)
    }

    @Test(arguments: [NetworkError.notConnected, .connectionRefused, .connectionReset, .shortBody, .dnsFailure, .tlsFailure, .timedOut, .transport(message: "boom")])
    func transportFailuresAreUnavailable(failure networkError: NetworkError) async {
        let (error, transport) = await failure([.fail(networkError)])
        #expect(error?.code == .remoteUnavailable)
        // A refused connection is not retried (the offline answer must not wait); others are.
        let expectedAttempts = networkError.isRetryable ? 3 : 1
        #expect(transport.requestCount == expectedAttempts)
    }

    @Test func deadlineFiresWhenTMDBNeverAnswers() async throws {
        let (error, _) = await failure([.hang], deadline: 0.2)
        let timedOut = try #require(error)
        #expect(timedOut.code == .remoteUnavailable)
        #expect(timedOut.message.contains("did not answer"))
    }

    @Test func cancellationIsReportedAsCancelled() async {
        let transport = FakeHTTPTransport([.hang])
        let remote = TMDBRemote(configuration: TMDBRemoteConfiguration(credential: .bearer("t")), transport: transport, timeSource: clock.timeSource)
        let call = Task { try await remote.fetch(.configuration, etag: nil) }
        while transport.requestCount == 0 { await Task.yield() }
        call.cancel()
        await #expect(throws: MoviesError(code: .cancelled, message: "The request to TMDB was cancelled.")) { try await call.value }
    }

    @Test(arguments: [
        (RemoteRequest.configuration, #"{"images":{}}"#),
        (.movieChanges(startDate: "2026-11-01", endDate: "2026-11-02", page: 1), "<html>maintenance</html>"),
        (.image(baseURL: "https://image.tmdb.org/t/p/", size: "w92", path: "/a.jpg"), ""),
    ])
    func undecodableSuccessBodiesAreInvalidResponses(request: RemoteRequest, body: String) async throws {
        let (error, transport) = await failure([FakeHTTPTransport.json(200, body)], request)
        #expect(error?.code == .invalidResponse)
        #expect(transport.requestCount == 1)
    }

    /// A search page and a movie's details are decoded once, by the loader that stores them
    /// (`DefaultMoviesRepositoryCachingTests.malformedRemoteBodyIsNeverStored`): the remote hands
    /// their bodies on as TMDB sent them.
    @Test(arguments: [
        (RemoteRequest.search(query: "x", page: 1, language: nil), "<html>maintenance</html>"),
        (.movie(id: 1, language: nil), #"{"title":"no id"}"#),
    ])
    func searchAndMovieBodiesAreDecodedByTheirLoader(request: RemoteRequest, body: String) async throws {
        let transport = FakeHTTPTransport([FakeHTTPTransport.json(200, body)])
        let remote = TMDBRemote(configuration: TMDBRemoteConfiguration(credential: .bearer("t")), transport: transport, timeSource: clock.timeSource)
        let response = try await remote.fetch(request, etag: nil)
        #expect(response.httpStatus == 200 && response.body == Data(body.utf8))
    }

    @Test(arguments: [Credential.bearer(token), .apiKey(token)])
    func noErrorEverContainsTheToken(credential: Credential) async {
        let echo = #"{"status_code":7,"status_message":"Invalid API key \#(Self.token): You must be granted a valid key."}"#
        let url = "https://api.themoviedb.org/3/movie/550?api_key=\(Self.token)"
        let movie = RemoteRequest.movie(id: 550, language: nil)
        let scenarios: [([FakeHTTPTransport.Step], RemoteRequest)] = [
            ([FakeHTTPTransport.json(401, echo)], movie),
            ([FakeHTTPTransport.json(422, #"{"errors":["bad token \#(Self.token)"]}"#)], movie),
            ([.fail(.transport(message: "could not load \(url)"))], movie),
            ([.fail(.transport(message: "Authorization: Bearer \(Self.token)"))], movie),
            ([.fail(.notConnected)], movie),
            ([FakeHTTPTransport.json(503)], movie),
            ([FakeHTTPTransport.json(200, "not json \(Self.token)")], .configuration),
        ]
        for (steps, request) in scenarios {
            let (error, _) = await failure(steps, request, credential: credential)
            let moviesError = error
            #expect(moviesError != nil)
            for text in [moviesError?.description ?? "", moviesError?.message ?? "", String(reflecting: moviesError)] {
                #expect(!text.contains(Self.token), "token leaked: \(text)")
            }
        }
    }

    @Test(.enabled(if: Fixtures.isAvailable, FixtureLocator.skipComment), arguments: FixtureLocator.entries(.errorBody))
    func recordedErrorBodiesMapByStatus(entry: Fixtures.Entry) async throws {
        let body = try Fixtures.data(entry.file)
        let step = FakeHTTPTransport.Step.respond(HTTPResponse(status: entry.httpStatus, body: body))
        let (error, _) = await failure([step])
        let mapped = try #require(error)
        let tmdbCode = TMDBErrorDTO.decode(body)?.statusCode
        switch entry.httpStatus {
        case 404:
            #expect(mapped.code == .notFound && mapped.tmdbCode == tmdbCode)
        case 401:
            #expect(mapped.code == .remoteRejected && mapped.isAuthRejection)
        default:
            #expect(mapped.code == .remoteRejected && mapped.httpStatus == entry.httpStatus)
        }
    }

    @Test(.enabled(if: Fixtures.isAvailable, FixtureLocator.skipComment), arguments: FixtureLocator.entries(.listPage).filter { $0.endpoint.hasPrefix("search/movie") })
    func recordedSearchPagesPassValidationUnchanged(entry: Fixtures.Entry) async throws {
        let body = try Fixtures.data(entry.file)
        let transport = FakeHTTPTransport([.respond(HTTPResponse(status: 200, body: body))])
        let remote = TMDBRemote(configuration: TMDBRemoteConfiguration(credential: .bearer("t")), transport: transport, timeSource: clock.timeSource)
        let response = try await remote.fetch(.search(query: "x", page: 1, language: nil), etag: nil)
        #expect(response.body == body)
    }
}
