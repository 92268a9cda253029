import Foundation
import MoviesTestSupport
import Networking
import Testing

@Suite struct NetworkServiceTests {
    let base = URL(string: "https://api.example.test/3/")!
    let clock = TestClock()

    // The call's deadline runs on real time (the back-off on the virtual clock): generous by
    // default, so a starved machine never cuts retries short; deadline tests pass their own.
    func service(_ transport: FakeHTTPTransport, credential: Credential? = .bearer("tok"), deadline: Double = 300, policy: RetryPolicy = RetryPolicy(random: { 0 })) -> NetworkService {
        NetworkService(
            baseURL: base, credential: credential, transport: transport,
            rateLimiter: TokenBucketRateLimiter(requestsPerSecond: 1000, burst: 1000, timeSource: clock.timeSource),
            retryPolicy: policy, requestTimeoutSeconds: 3, deadlineSeconds: deadline, timeSource: clock.timeSource
        )
    }

    @Test func buildsRequestWithCredentialTimeoutAndHeaders() async throws {
        let transport = FakeHTTPTransport([FakeHTTPTransport.json(200, "{}")])
        let response = try await service(transport).response(for: Endpoint(path: "movie/550", headers: ["Accept": "application/json"]))
        #expect(response.status == 200)
        let sent = try #require(transport.requests.first)
        #expect(sent.url.absoluteString == "https://api.example.test/3/movie/550")
        #expect(sent.header("Authorization") == "Bearer tok")
        #expect(sent.header("accept") == "application/json")
        #expect(sent.timeoutSeconds == 3)
    }

    @Test func absoluteEndpointGetsNoCredential() async throws {
        let transport = FakeHTTPTransport()
        for credential in [Credential.bearer("tok"), .apiKey("tok")] {
            _ = try await service(transport, credential: credential).response(for: Endpoint(url: URL(string: "https://img.example.test/t/p/w92/a.jpg")!))
        }
        for sent in transport.requests {
            #expect(sent.header("Authorization") == nil)
            #expect(sent.url.absoluteString == "https://img.example.test/t/p/w92/a.jpg")
        }
    }

    @Test func retriesServerErrorsThenSucceeds() async throws {
        let transport = FakeHTTPTransport([FakeHTTPTransport.json(503), FakeHTTPTransport.json(502), FakeHTTPTransport.json(200, "{}")])
        let response = try await service(transport).response(for: Endpoint(path: "configuration"))
        #expect(response.status == 200)
        #expect(transport.requestCount == 3)
        #expect(clock.sleeps == [0.25, 0.5])  // the back-off with random 0: half of 0.5 s, then of 1 s
    }

    @Test func returnsTheLastResponseWhenAttemptsRunOut() async throws {
        let transport = FakeHTTPTransport([FakeHTTPTransport.json(500)])
        let response = try await service(transport).response(for: Endpoint(path: "configuration"))
        #expect(response.status == 500)
        #expect(transport.requestCount == 3)
    }

    @Test(arguments: [400, 401, 404, 422])
    func clientErrorsAreNotRetried(status: Int) async throws {
        let transport = FakeHTTPTransport([FakeHTTPTransport.json(status)])
        let response = try await service(transport).response(for: Endpoint(path: "configuration"))
        #expect(response.status == status)
        #expect(transport.requestCount == 1)
    }

    @Test func transportErrorsAreRetriedAndRethrownWhenPersistent() async throws {
        let recovering = FakeHTTPTransport([.fail(.timedOut), FakeHTTPTransport.json(200)])
        #expect(try await service(recovering).response(for: Endpoint(path: "x")).status == 200)
        #expect(recovering.requestCount == 2)

        let failing = FakeHTTPTransport([.fail(.transport(message: "connection reset"))])
        await #expect(throws: NetworkError.transport(message: "connection reset")) { try await service(failing).response(for: Endpoint(path: "x")) }
        #expect(failing.requestCount == 3)
    }

    @Test func refusedConnectionsFailFastWithoutRetry() async throws {
        let refused = FakeHTTPTransport([.fail(.connectionRefused)])
        await #expect(throws: NetworkError.connectionRefused) { try await service(refused).response(for: Endpoint(path: "x")) }
        #expect(refused.requestCount == 1)
    }

    @Test func tooManyRequestsPausesTheLimiterForRetryAfter() async throws {
        let transport = FakeHTTPTransport([FakeHTTPTransport.json(429, headers: ["Retry-After": "2"]), FakeHTTPTransport.json(200)])
        let service = service(transport)
        let start = clock.seconds
        let response = try await service.response(for: Endpoint(path: "x"))
        // The caller gets the 429 at once (no retry, no wait)…
        #expect(response.status == 429 && response.retryAfterSeconds == 2)
        #expect(transport.requestCount == 1)
        #expect(clock.seconds - start < 0.001)
        // …and the next request waits for the Retry-After.
        try await service.rateLimiter.acquire()
        #expect(clock.seconds - start >= 2)
    }

    @Test func retryAfterBeyondTheCapEndsRetriesButStillPausesEveryone() async throws {
        let transport = FakeHTTPTransport([FakeHTTPTransport.json(429, headers: ["Retry-After": "120"])])
        let service = service(transport)
        let response = try await service.response(for: Endpoint(path: "x"))
        #expect(response.status == 429)
        #expect(transport.requestCount == 1)
        let before = clock.seconds
        try await service.rateLimiter.acquire()
        #expect(clock.seconds - before >= 30)  // paused for the capped Retry-After
    }

    @Test func deadlineFiresWhenTheTransportNeverAnswers() async {
        let transport = FakeHTTPTransport([.hang])
        await #expect(throws: NetworkError.timedOut) {
            try await service(transport, deadline: 0.2).response(for: Endpoint(path: "x"))
        }
    }

    @Test func cancellingTheCallerEndsTheCall() async {
        let transport = FakeHTTPTransport([.hang])
        let service = service(transport)
        let call = Task { try await service.response(for: Endpoint(path: "x")) }
        while transport.requestCount == 0 { await Task.yield() }
        call.cancel()
        await #expect(throws: NetworkError.cancelled) { try await call.value }
    }
}
