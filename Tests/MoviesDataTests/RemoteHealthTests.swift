import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing

@Suite struct RemoteHealthTests {
    let clock = TestClock()
    static let timeout = MoviesError(code: .remoteUnavailable, message: "timed out")
    static let serverError = MoviesError(code: .remoteUnavailable, message: "HTTP 503", httpStatus: 503)
    static let badKey = MoviesError(code: .remoteRejected, message: "Invalid API key", httpStatus: 401, tmdbCode: 7)

    private func health(random: Double = 0.5) -> RemoteHealth {
        RemoteHealth(configuration: .init(failureThreshold: 3), now: clock.now, randomUnit: { random })
    }

    @Test func byDefaultOneFailureGatesTheNetwork() async throws {
        let health = RemoteHealth(now: clock.now, randomUnit: { 0.5 })
        await health.recordFailure(Self.timeout)
        let gated = try #require(await health.gate())
        #expect(gated.code == .remoteUnavailable && gated.retryAfterSeconds == 5)
    }

    @Test func startsUnknownAndOpen() async {
        let health = health()
        #expect(await health.remoteStatus().state == .unknown)
        #expect(await health.gate() == nil)
    }

    @Test func offlineAtOnceButNetworkSkippedOnlyAfterThreeConsecutiveFailures() async throws {
        let health = health()
        await health.recordFailure(Self.timeout)
        await health.recordFailure(Self.serverError)
        #expect(await health.remoteStatus().state == .offline)
        #expect(await health.remoteStatus().retryAt == nil)
        #expect(await health.gate() == nil)
        await health.recordFailure(Self.timeout)
        let status = await health.remoteStatus()
        #expect(status.state == .offline)
        #expect(status.consecutiveFailures == 3)
        #expect(status.retryAt == clock.date.addingTimeInterval(5))
        let gated = try #require(await health.gate())
        #expect(gated.code == .remoteUnavailable)
        #expect(gated.retryAfterSeconds == 5)
        #expect(await health.shouldAttempt(at: clock.date) == false)
        #expect(await health.shouldAttempt(at: clock.date.addingTimeInterval(5)))
    }

    @Test func backoffDoublesUpToTheCap() async {
        let health = RemoteHealth(configuration: .init(failureThreshold: 1, initialBackoffSeconds: 5, maxBackoffSeconds: 30), now: clock.now, randomUnit: { 0.5 })
        var periods: [Double] = []
        for _ in 0..<5 {
            await health.recordFailure(Self.timeout)
            let retryAt = await health.remoteStatus().retryAt ?? clock.date
            periods.append(retryAt.timeIntervalSince(clock.date))
            clock.set(retryAt)
            #expect(await health.gate() == nil)
        }
        #expect(periods == [5, 10, 20, 30, 30])
    }

    @Test func backoffIsJittered() async {
        let low = RemoteHealth(configuration: .init(failureThreshold: 1), now: clock.now, randomUnit: { 0 })
        let high = RemoteHealth(configuration: .init(failureThreshold: 1), now: clock.now, randomUnit: { 0.999 })
        await low.recordFailure(Self.timeout)
        await high.recordFailure(Self.timeout)
        let lowWait = await low.remoteStatus().retryAt?.timeIntervalSince(clock.date) ?? 0
        let highWait = await high.remoteStatus().retryAt?.timeIntervalSince(clock.date) ?? 0
        #expect(lowWait == 4)
        #expect(highWait > 5.9 && highWait <= 6)
    }

    @Test func authRejectionIsItsOwnStateNeverOffline() async throws {
        let health = health()
        for _ in 0..<4 {
            await health.recordFailure(Self.badKey)
            clock.advance(by: 1000)
        }
        #expect(await health.remoteStatus().state == .authRejected)
        await health.recordFailure(Self.badKey)
        let gated = try #require(await health.gate())
        #expect(gated.code == .remoteRejected)
        #expect(gated.isAuthRejection)
        #expect(gated.retryAfterSeconds != nil)
    }

    /// With no credential nothing reaches TMDB: the state stays unknown, the status says the
    /// credential is missing (it said auth_rejected, as if TMDB had refused one), no pause starts,
    /// and nothing about a rejected credential reaches the journal.
    @Test func aMissingCredentialIsNotARejectedOne() async {
        let events = RecordingEventLog()
        let health = RemoteHealth(credential: .missing, now: clock.now, randomUnit: { 0.5 }, events: events)
        let missing = MoviesError(code: .remoteRejected, message: "moviesd has no TMDB credential", tmdbCode: 7)
        for _ in 0..<3 {
            await health.recordFailure(missing)
            #expect(await health.gate(for: .background) == nil)
            #expect(await health.gate(for: .interactive) == nil)
        }
        let status = await health.remoteStatus()
        #expect(status.state == .unknown)
        #expect(status.credential == .missing)
        #expect(status.lastError == nil && status.retryAt == nil && status.consecutiveFailures == 0)
        #expect(events.events.isEmpty, "\(events.events)")
        // A configured credential is said so, and its rejection is still its own state.
        let configured = RemoteHealth(now: clock.now, events: events)
        #expect(await configured.remoteStatus().credential == .configured)
        await configured.recordFailure(Self.badKey)
        #expect(await configured.remoteStatus().state == .authRejected)
        #expect(events.names == ["remote.auth-rejected"])
    }

    @Test func successRecoversAndResetsFailures() async {
        let health = health()
        for _ in 0..<3 { await health.recordFailure(Self.timeout) }
        await health.recordSuccess()
        let status = await health.remoteStatus()
        #expect(status.state == .online)
        #expect(status.consecutiveFailures == 0)
        #expect(status.retryAt == nil)
        #expect(await health.gate() == nil)
        // The backoff starts over after a recovery.
        for _ in 0..<3 { await health.recordFailure(Self.timeout) }
        #expect(await health.remoteStatus().retryAt == clock.date.addingTimeInterval(5))
    }

    @Test func rateLimitHoldsUntilRetryAfter() async throws {
        let health = health()
        await health.recordFailure(MoviesError(code: .remoteUnavailable, message: "Too many requests", retryAfterSeconds: 30, httpStatus: 429))
        #expect(await health.remoteStatus().state == .rateLimited)
        let gated = try #require(await health.gate())
        #expect(gated.retryAfterSeconds == 30)
        #expect(gated.httpStatus == 429)
        clock.advance(by: 30)
        #expect(await health.gate() == nil)
    }

    @Test func anAnsweredRequestErrorCountsAsReachable() async {
        let health = health()
        await health.recordFailure(Self.timeout)
        await health.recordFailure(MoviesError(code: .notFound, message: "not found", httpStatus: 404, tmdbCode: 34))
        #expect(await health.remoteStatus().state == .online)
        #expect(await health.remoteStatus().consecutiveFailures == 0)
    }
}
