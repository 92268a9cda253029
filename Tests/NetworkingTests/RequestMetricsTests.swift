import Foundation
import MoviesTestSupport
import Networking
import Testing

/// What `NetworkService` counts in its `RequestMetrics`: each attempt by endpoint kind and status
/// class (retries included), the 429s, the attempts' latency, and rate-limit waits by priority.
@Suite struct RequestMetricsTests {
    let base = URL(string: "https://api.example.test/3/")!
    let clock = TestClock()

    func service(_ transport: FakeHTTPTransport, metrics: RequestMetrics, limiter: TokenBucketRateLimiter? = nil) -> NetworkService {
        NetworkService(
            baseURL: base, credential: .bearer("tok"), transport: transport,
            rateLimiter: limiter ?? TokenBucketRateLimiter(requestsPerSecond: 1000, burst: 1000, timeSource: clock.timeSource),
            retryPolicy: RetryPolicy(random: { 0 }), requestTimeoutSeconds: 3, deadlineSeconds: 300, timeSource: clock.timeSource,
            metrics: metrics)
    }

    static func endpoint(_ kind: String) -> Endpoint {
        var endpoint = Endpoint(path: kind)
        endpoint.kind = kind
        return endpoint
    }

    @Test func attemptsAreCountedByKindAndStatusClassRetriesIncluded() async throws {
        let metrics = RequestMetrics()
        let transport = FakeHTTPTransport([
            .respond(HTTPResponse(status: 200)), .respond(HTTPResponse(status: 304)),
            // A 500 is retried: two attempts, one call.
            .respond(HTTPResponse(status: 500)), .respond(HTTPResponse(status: 200)),
            .respond(HTTPResponse(status: 404)),
            .fail(.connectionRefused),
        ])
        let service = service(transport, metrics: metrics)
        _ = try await service.response(for: Self.endpoint("search"))
        _ = try await service.response(for: Self.endpoint("search"))
        _ = try await service.response(for: Self.endpoint("movie"))
        _ = try await service.response(for: Self.endpoint("movie"))
        await #expect(throws: NetworkError.connectionRefused) { try await service.response(for: Self.endpoint("image")) }
        let snapshot = metrics.snapshot
        #expect(snapshot.attempts == [
            .init(kind: "search", outcome: .success): 1, .init(kind: "search", outcome: .redirection): 1,
            .init(kind: "movie", outcome: .serverError): 1, .init(kind: "movie", outcome: .success): 1,
            .init(kind: "movie", outcome: .clientError): 1, .init(kind: "image", outcome: .failed): 1,
        ])
        #expect(snapshot.latency["search"]?.count == 2)
        #expect(snapshot.latency["movie"]?.count == 3)
        #expect(snapshot.latency["image"]?.count == 1)
        #expect(snapshot.rateLimited == 0)
    }

    @Test func a429IsCountedOnceAndRequestsAfterItWaitForThePause() async throws {
        let metrics = RequestMetrics()
        let transport = FakeHTTPTransport([.respond(HTTPResponse(status: 429, headers: ["Retry-After": "1"])), .respond(HTTPResponse(status: 200))])
        // The pause and the wait run on the test's clock: the wait is the pause's second, exactly.
        let service = service(transport, metrics: metrics)
        let limited = try await service.response(for: Self.endpoint("search"))
        #expect(limited.status == 429)
        try await RateLimitLane.$current.withValue(RateLimitLane(uid: nil, priority: .background)) {
            _ = try await service.response(for: Self.endpoint("search"))
        }
        let snapshot = metrics.snapshot
        #expect(snapshot.rateLimited == 1)
        #expect(snapshot.attempts[.init(kind: "search", outcome: .clientError)] == 1)
        #expect(snapshot.attempts[.init(kind: "search", outcome: .success)] == 1)
        // The background request waited out the second of the pause (and the first token after
        // it, a thousandth of a second at 1,000 a second); the first one waited not at all.
        let waited = snapshot.waitedNanoseconds[.background] ?? 0
        #expect(waited >= 1_000_000_000 && waited <= 1_002_000_000, "\(waited)")
        #expect(snapshot.waitedNanoseconds[.interactive] == nil)
    }

    @Test func theStatusClassOfEachStatus() {
        #expect(RequestMetrics.Outcome(status: 200) == .success)
        #expect(RequestMetrics.Outcome(status: 304) == .redirection)
        #expect(RequestMetrics.Outcome(status: 429) == .clientError)
        #expect(RequestMetrics.Outcome(status: 503) == .serverError)
    }
}
