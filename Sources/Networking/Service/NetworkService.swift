import Foundation
import SystemSupport

/// Sends endpoints to one server: builds the URL, adds the credential, waits for the rate limiter,
/// retries what may succeed on retry, and ends within an overall deadline.
///
/// A 429 is never waited out: it pauses the shared bucket for its `Retry-After` and is returned at
/// once, so a caller with nothing cached learns "rate limited, retry in N s" immediately.
///
/// It returns every HTTP response (2xx or not) once retries are over; interpreting statuses is the
/// caller's job. Failures without a response are `NetworkError`s whose text holds no credential.
public struct NetworkService: Sendable {
    /// The base URL that endpoint paths are relative to, such as `https://api.themoviedb.org/3/`.
    public let baseURL: URL
    /// The credential added to endpoints that require it; `nil` sends none.
    public let credential: Credential?
    /// Sends each attempt.
    public let transport: any HTTPTransport
    /// The bucket every attempt takes a token from; paused on 429.
    public let rateLimiter: TokenBucketRateLimiter
    /// Which failures are retried and after how long.
    public let retryPolicy: RetryPolicy
    /// The timeout of each attempt, in seconds.
    public let requestTimeoutSeconds: Double
    /// The limit for the whole call (rate-limit waits, attempts and backoff), in seconds.
    public let deadlineSeconds: Double
    /// The clock used for backoff sleeps (the deadline always runs on real time).
    public let timeSource: TimeSource
    /// Where attempts, their latency, 429s and rate-limit waits are counted (`nil`: nowhere).
    public let metrics: RequestMetrics?

    /// Creates a service.
    public init(
        baseURL: URL,
        credential: Credential?,
        transport: any HTTPTransport,
        rateLimiter: TokenBucketRateLimiter = TokenBucketRateLimiter(),
        retryPolicy: RetryPolicy = .standard,
        requestTimeoutSeconds: Double = 10,
        deadlineSeconds: Double = 15,
        timeSource: TimeSource = .system,
        metrics: RequestMetrics? = nil
    ) {
        self.metrics = metrics
        self.baseURL = baseURL
        self.credential = credential
        self.transport = transport
        self.rateLimiter = rateLimiter
        self.retryPolicy = retryPolicy
        self.requestTimeoutSeconds = requestTimeoutSeconds
        self.deadlineSeconds = deadlineSeconds
        self.timeSource = timeSource
    }

    /// The request that `endpoint` becomes, credential included when the endpoint requires it.
    public func request(for endpoint: Endpoint) throws -> HTTPRequest {
        let request = HTTPRequest(
            method: endpoint.method,
            url: try endpoint.url(relativeTo: baseURL),
            headers: endpoint.headers,
            timeoutSeconds: requestTimeoutSeconds,
            body: endpoint.body
        )
        guard endpoint.requiresCredential, let credential else { return request }
        return credential.authorize(request)
    }

    /// Sends `endpoint` and returns the last response. Throws `NetworkError` (`.timedOut` when the
    /// deadline passes, `.cancelled` when the caller is cancelled).
    public func response(for endpoint: Endpoint) async throws -> HTTPResponse {
        let request = try request(for: endpoint)
        let started = MonotonicClock.seconds()
        return try await Deadline.run(seconds: deadlineSeconds) {
            try await attempts(of: request, kind: endpoint.kind, startedAt: started)
        }
    }

    private func attempts(of request: HTTPRequest, kind: String, startedAt started: Double) async throws -> HTTPResponse {
        var attempt = 1
        while true {
            // The wait on the limiter's clock (the injected one: tests run it in virtual time).
            let waitStarted = timeSource.now()
            do {
                try await rateLimiter.acquire()
            } catch {
                throw NetworkError.cancelled
            }
            metrics?.waited(UInt64(max(0, timeSource.now() - waitStarted) * 1e9), priority: RateLimitLane.current.priority)
            let sent = MonotonicClock.now()
            let delay: Double
            do {
                let response: HTTPResponse
                do {
                    response = try await transport.send(request)
                    metrics?.answered(kind, status: response.status, nanoseconds: MonotonicClock.now() &- sent)
                } catch {
                    // A cancelled attempt is the caller's doing, not TMDB's.
                    if !(error is CancellationError), error as? NetworkError != .cancelled {
                        metrics?.failed(kind, nanoseconds: MonotonicClock.now() &- sent)
                    }
                    throw error
                }
                if response.status == 429 {
                    // Rate limited: every later request waits (the bucket pauses), and this caller
                    // gets the 429 at once, with its Retry-After, instead of waiting it out.
                    await rateLimiter.pause(for: retryPolicy.pause(after: response, attempt: attempt))
                    return response
                }
                guard let next = retryPolicy.delayBeforeRetry(after: response, attempt: attempt),
                      fitsDeadline(next, startedAt: started) else { return response }
                delay = next
            } catch let error as NetworkError {
                guard let next = retryPolicy.delayBeforeRetry(after: error, attempt: attempt),
                      fitsDeadline(next, startedAt: started) else { throw error }
                delay = next
            } catch is CancellationError {
                throw NetworkError.cancelled
            } catch {
                let message = credential?.scrub(String(describing: error)) ?? Redaction.redactingCredentials(in: String(describing: error))
                throw NetworkError.transport(message: message)
            }
            do {
                try await timeSource.sleep(delay)
            } catch {
                throw NetworkError.cancelled
            }
            attempt += 1
        }
    }

    /// Whether waiting `delay` seconds still leaves time before the deadline.
    private func fitsDeadline(_ delay: Double, startedAt started: Double) -> Bool {
        MonotonicClock.seconds() - started + delay < deadlineSeconds
    }
}
