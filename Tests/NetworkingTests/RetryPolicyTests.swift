import Networking
import Testing

@Suite struct RetryPolicyTests {
    let policy = RetryPolicy(maxAttempts: 3, baseDelaySeconds: 1, maxDelaySeconds: 4, maxRetryAfterSeconds: 30, random: { 0.5 })

    @Test(arguments: [429, 500, 502, 503, 504, 599])
    func retryableStatuses(status: Int) {
        #expect(RetryPolicy.isRetryable(status: status))
        #expect(policy.delayBeforeRetry(after: HTTPResponse(status: status), attempt: 1) != nil)
    }

    @Test(arguments: [200, 304, 400, 401, 403, 404, 422])
    func otherStatusesAreNeverRetried(status: Int) {
        #expect(!RetryPolicy.isRetryable(status: status))
        #expect(policy.delayBeforeRetry(after: HTTPResponse(status: status), attempt: 1) == nil)
    }

    @Test(arguments: [NetworkError.timedOut, .connectionReset, .shortBody, .transport(message: "x")])
    func transportErrorsAreRetried(error: NetworkError) {
        #expect(policy.delayBeforeRetry(after: error, attempt: 1) != nil)
    }

    /// A refused connection means the remote is not there: fail fast so the offline answer is instant.
    @Test(arguments: [NetworkError.notConnected, .connectionRefused, .dnsFailure, .tlsFailure, .cancelled, .invalidResponse, .invalidURL])
    func cancellationAndBadResponsesAreNotRetried(error: NetworkError) {
        #expect(policy.delayBeforeRetry(after: error, attempt: 1) == nil)
    }

    @Test func stopsAtMaxAttempts() {
        #expect(policy.delayBeforeRetry(after: HTTPResponse(status: 503), attempt: 2) != nil)
        #expect(policy.delayBeforeRetry(after: HTTPResponse(status: 503), attempt: 3) == nil)
        #expect(RetryPolicy.none.delayBeforeRetry(after: .timedOut, attempt: 1) == nil)
        #expect(RetryPolicy.standard.maxAttempts == 3)
    }

    @Test func backoffDoublesWithinJitterBoundsAndIsCapped() {
        let low = RetryPolicy(baseDelaySeconds: 1, maxDelaySeconds: 4, random: { 0 })
        let middle = RetryPolicy(baseDelaySeconds: 1, maxDelaySeconds: 4, random: { 0.5 })
        let high = RetryPolicy(baseDelaySeconds: 1, maxDelaySeconds: 4, random: { 0.999999 })
        #expect(low.backoffSeconds(afterAttempt: 1) == 0.5, "never less than half the doubled pause")
        #expect(middle.backoffSeconds(afterAttempt: 1) == 1)
        #expect(abs(high.backoffSeconds(afterAttempt: 1) - 1.5) < 1e-5, "at most half again")
        #expect(low.backoffSeconds(afterAttempt: 2) == 1)
        #expect(middle.backoffSeconds(afterAttempt: 3) == 4)
        #expect(low.backoffSeconds(afterAttempt: 10) == 2)  // capped at 4, then jittered down by up to half
        #expect(high.backoffSeconds(afterAttempt: 10) == 4, "the jitter never passes the cap")
    }

    @Test func tooManyRequestsHonoursRetryAfterUpToTheCap() {
        #expect(policy.delayBeforeRetry(after: HTTPResponse(status: 429, headers: ["Retry-After": "7"]), attempt: 1) == 7)
        #expect(policy.delayBeforeRetry(after: HTTPResponse(status: 429, headers: ["Retry-After": "31"]), attempt: 1) == 30)
        #expect(policy.delayBeforeRetry(after: HTTPResponse(status: 429), attempt: 1) == policy.backoffSeconds(afterAttempt: 1))
    }
}
