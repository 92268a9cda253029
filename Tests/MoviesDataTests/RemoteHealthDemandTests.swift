import FoundationEssentials
@testable import MoviesData
import MoviesDomain
import MoviesTestSupport
import Synchronization
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

    @Test func whileUsersAskTheProbeChecksTMDBAtMostOnceEveryFiveSecondsAndNoUserWaits() async throws {
        let health = await pausedHealth()
        await health.attachProbe()
        #expect(await health.probeDelay() == 40, "nobody asks: the probe waits for the pause")
        let first = try #require(await health.gate(for: .interactive), "the user answers from the cache at once")
        #expect(first.retryAfterSeconds == 5)
        #expect(first.message.contains("not trying again"))
        #expect(await health.probeDelay() == 0, "and the probe checks TMDB now")
        await health.takeProbeRequest()
        for _ in 0..<10 { #expect(await health.gate(for: .interactive) != nil) }
        #expect(await health.probeDelay() == 40, "no second probe within 5 s, however many users ask")
        clock.advance(by: 4.5)
        #expect(await health.gate(for: .interactive)?.retryAfterSeconds == 1)
        #expect(await health.probeDelay() != 0)
        clock.advance(by: 0.5)
        #expect(await health.gate(for: .interactive) != nil)
        #expect(await health.probeDelay() == 0, "5 s later, the next probe")
        #expect(await health.gate(for: .background) != nil, "background work still waits for the pause")
    }

    @Test func anExplicitCommandProbesAtOnce() async {
        let health = await pausedHealth()
        _ = await health.gate(for: .interactive)
        #expect(await health.gate(for: .explicit) == nil, "even right after a user's probe")
        #expect(await health.gate(for: .explicit) == nil)
    }

    @Test func aSuccessfulProbeEndsThePauseForEveryone() async {
        let health = await pausedHealth()
        _ = await health.gate(for: .interactive)
        await health.recordSuccess()
        #expect(await health.gate(for: .background) == nil)
        #expect(await health.gate(for: .interactive) == nil)
        #expect(await health.probeDelay() == nil, "online: nothing to probe")
    }

    @Test func theProbeAUserAskedForFindsTMDBBackWithinASecond() async throws {
        let health = await pausedHealth()
        let remote = ScriptedMoviesRemote()
        await remote.script(.configuration, .success(RemoteResponse(httpStatus: 200, body: Data("{}".utf8))))
        let slept = Mutex<[Double]>([])
        let probe = RemoteProbe(health: health, remote: remote, sleep: { seconds in
            slept.withLock { $0.append(seconds) }
            try await Task.sleep(for: .milliseconds(1))
        })
        await health.attachProbe()
        #expect(await probe.step())
        #expect(await remote.fetchCount == 0, "the pause (40 s) is on and nobody asked")
        _ = await health.gate(for: .interactive)
        #expect(await probe.step())
        #expect(await remote.fetchCount == 1)
        #expect(await health.remoteStatus().state == .online)
        #expect(slept.withLock { $0 } == [1], "one idle second at most before the check")
    }

    @Test func thePauseIsCappedAtSixtySeconds() async {
        let health = RemoteHealth(now: clock.now, randomUnit: { 0.999 })
        var longest = 0.0
        for _ in 0..<20 {
            await health.recordFailure(Self.refused)
            let pause = await health.remoteStatus().retryAt?.timeIntervalSince(clock.date) ?? 0
            longest = max(longest, pause)
        }
        #expect(longest == 60, "jitter never takes the pause past its cap")
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

    @Test func afterThePauseBackgroundWorkWaitsForTheProbeToReachTMDB() async {
        let health = await pausedHealth()
        await health.attachProbe()
        clock.advance(by: 1000)
        #expect(await health.gate(for: .background) != nil, "the pause is over but the probe has not reached TMDB")
        #expect(await health.isPaused())
        #expect(await health.probeDelay() == 0)
        await health.detachProbe()
        #expect(await health.gate(for: .background) == nil, "without a probe, the pause's end opens the gate")
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
