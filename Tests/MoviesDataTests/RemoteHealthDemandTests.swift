import FoundationEssentials
@testable import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing

/// Issue 27, "back quickly": the retry pause governs background work only; users probe at most once
/// every 5 s, explicit commands at once; the pause is capped at 60 s.
@Suite struct RemoteHealthDemandTests {
    let clock = TestClock()
    static let refused = MoviesError(code: .remoteUnavailable, message: "TMDB refused the connection")

    private func pausedHealth() async -> RemoteHealth {
        let health = RemoteHealth(now: clock.now, randomUnit: { 0.5 })
        for _ in 0..<4 { await health.recordFailure(Self.refused) }
        return health
    }

    @Test func backgroundWorkHonoursThePauseToItsEnd() async throws {
        let health = await pausedHealth()
        let pause = try #require(await health.remoteStatus().retryAt).timeIntervalSince(clock.date)
        #expect(pause == 40, "5, 10, 20, 40 s")
        #expect(await health.gate(for: .background) != nil)
        clock.advance(by: pause - 1)
        let gated = try #require(await health.gate(for: .background))
        #expect(gated.retryAfterSeconds == 1)
        clock.advance(by: 1)
        #expect(await health.gate(for: .background) == nil)
    }

    @Test func whileUsersAskOneCallEveryFiveSecondsGoesToTMDB() async throws {
        let health = await pausedHealth()
        #expect(await health.gate(for: .interactive) == nil, "the first user call is the probe")
        for _ in 0..<10 {
            let gated = try #require(await health.gate(for: .interactive), "the others within 5 s are not sent")
            #expect(gated.code == .remoteUnavailable)
            #expect(gated.retryAfterSeconds == 5)
        }
        clock.advance(by: 4.5)
        #expect(await health.gate(for: .interactive)?.retryAfterSeconds == 1)
        clock.advance(by: 0.5)
        #expect(await health.gate(for: .interactive) == nil, "5 s later, the next probe")
        #expect(await health.gate(for: .interactive) != nil)
        #expect(await health.gate(for: .background) != nil, "background work still waits for the pause")
    }

    @Test func anExplicitCommandProbesAtOnce() async {
        let health = await pausedHealth()
        #expect(await health.gate(for: .interactive) == nil)
        #expect(await health.gate(for: .explicit) == nil, "even right after a user's probe")
        #expect(await health.gate(for: .explicit) == nil)
    }

    @Test func aSuccessfulProbeEndsThePauseForEveryone() async {
        let health = await pausedHealth()
        #expect(await health.gate(for: .interactive) == nil)
        await health.recordSuccess()
        #expect(await health.gate(for: .background) == nil)
        #expect(await health.gate(for: .interactive) == nil)
        #expect(await health.gate(for: .interactive) == nil, "online: no probe slots")
    }

    @Test func thePauseIsCappedAtSixtySeconds() async {
        let health = RemoteHealth(now: clock.now, randomUnit: { 0.999 })
        var longest = 0.0
        for _ in 0..<20 {
            await health.recordFailure(Self.refused)
            let pause = await health.remoteStatus().retryAt?.timeIntervalSince(clock.date) ?? 0
            longest = max(longest, pause)
        }
        #expect(longest > 60 && longest <= 72, "60 s, jittered by at most 20 %")
        let calm = RemoteHealth(now: clock.now, randomUnit: { 0.5 })
        for _ in 0..<20 { await calm.recordFailure(Self.refused) }
        #expect(await calm.remoteStatus().retryAt?.timeIntervalSince(clock.date) == 60)
    }

    @Test func aRateLimitHoldsForEveryDemand() async throws {
        let health = RemoteHealth(now: clock.now, randomUnit: { 0.5 })
        await health.recordFailure(MoviesError(code: .remoteUnavailable, message: "Too many requests", retryAfterSeconds: 20, httpStatus: 429))
        for demand in [RemoteDemand.background, .interactive, .explicit] {
            #expect(await health.gate(for: demand)?.retryAfterSeconds == 20)
        }
        #expect(await health.isPaused() == false, "TMDB's own pause: no probe")
    }

    @Test func whileTheProbeRunsBackgroundWaitsForItButUsersStillProbe() async {
        let health = await pausedHealth()
        await health.attachProbe()
        clock.advance(by: 1000)
        #expect(await health.gate(for: .background) != nil, "the pause is over but the probe has not reached TMDB")
        #expect(await health.isPaused())
        #expect(await health.gate(for: .interactive) == nil)
    }

    @Test func anExplicitRefreshProbesOnceWhenPausedAndNotOtherwise() async throws {
        let health = await pausedHealth()
        let remote = ScriptedMoviesRemote()
        await remote.script(.configuration, .success(RemoteResponse(httpStatus: 200, body: Data("{}".utf8))))
        let probe = RemoteProbe(health: health, remote: remote, sleep: { _ in })
        await probe.probeIfPaused()
        #expect(await remote.fetchCount == 1)
        #expect(await health.remoteStatus().state == .online)
        await probe.probeIfPaused()
        #expect(await remote.fetchCount == 1, "online: nothing to probe")
    }
}
