import FoundationEssentials
@testable import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing

/// What `RemoteHealth` tells the journal: each state transition once, never once per call.
@Suite struct RemoteHealthEventsTests {
    let clock = TestClock()
    let events = RecordingEventLog()
    static let timeout = MoviesError(code: .remoteUnavailable, message: "TMDB did not answer within 15 seconds.")
    static let badKey = MoviesError(code: .remoteRejected, message: "Invalid API key", httpStatus: 401, tmdbCode: 7)
    static let tooMany = MoviesError(code: .remoteUnavailable, message: "TMDB is rate limiting requests", retryAfterSeconds: 5, httpStatus: 429)

    private func health() -> RemoteHealth {
        RemoteHealth(now: clock.now, randomUnit: { 0.5 }, events: events)
    }

    @Test func offlineAndBackAreReportedOnceEach() async {
        let health = health()
        await health.recordSuccess()
        for _ in 0..<5 { await health.recordFailure(Self.timeout) }
        clock.advance(by: 42)
        await health.recordSuccess()
        await health.recordSuccess()
        #expect(events.names == ["remote.online", "remote.offline", "remote.online"])
        let offline = events.events[1]
        #expect(offline.severity == .notice)
        #expect(offline.message.contains("did not answer within 15 seconds"))
        #expect(offline.message.contains("answering from the cache"))
        let back = events.events[2]
        #expect(back.severity == .notice)
        #expect(back.message.contains("after 42 s offline"))
        #expect(events.events[0].severity == .info)
    }

    @Test func rejectedTokenAndRateLimitAreWarningsOnce() async {
        let health = health()
        await health.recordFailure(Self.badKey)
        await health.recordFailure(Self.badKey)
        #expect(events.names == ["remote.auth-rejected"])
        #expect(events.events[0].severity == .warning)
        #expect(events.events[0].message.contains("HTTP 401"))
        await health.recordFailure(Self.tooMany)
        await health.recordFailure(Self.tooMany)
        #expect(events.names == ["remote.auth-rejected", "remote.rate-limited"])
        #expect(events.events[1].message.contains("Retry-After 5 s"))
    }

    @Test func aCallerOutOfPatienceMarksTheRemoteOfflineOnceAndGetsTheGatesError() async throws {
        let health = RemoteHealth(configuration: .init(slowCallSeconds: 3), now: clock.now, randomUnit: { 0.5 }, sleep: { _ in }, events: events)
        let patience = try #require(health.slowCallPatience)
        let first = try #require(await patience() as? MoviesError)
        #expect(first.code == .remoteUnavailable)
        #expect(first.message.contains("did not answer within 3 s"))
        #expect(await health.remoteStatus().state == .offline)
        // A second caller out of patience (it joined the same hanging call) says so once only.
        let second = try #require(await patience() as? MoviesError)
        #expect(second.code == .remoteUnavailable)
        #expect(events.names == ["remote.offline"])
    }

    @Test func aPatienceCancelledBeforeItsTimeMarksNothing() async throws {
        let health = RemoteHealth(
            configuration: .init(slowCallSeconds: 3), now: clock.now, randomUnit: { 0.5 },
            sleep: { _ in try await Task.sleep(for: .seconds(3600)) }, events: events)
        let patience = try #require(health.slowCallPatience)
        let waiting = Task { await patience() }
        waiting.cancel()
        #expect(await waiting.value == nil)
        #expect(await health.remoteStatus().state == .unknown)
        #expect(events.names.isEmpty)
    }

    @Test func withoutASlowMarkCallersHaveNoPatience() {
        #expect(RemoteHealth(configuration: .init(slowCallSeconds: nil)).slowCallPatience == nil)
    }

    @Test func whileAProbeRunsAnOfflineRemoteStaysGatedUntilTheProbeReachesIt() async throws {
        let health = health()
        let remote = ScriptedMoviesRemote()
        await remote.script(.configuration, .failure(Self.timeout))
        // Virtual time, but each sleep still suspends the probe: a loop that never suspends keeps
        // one of the few threads running tasks to itself (with a blocked test beside it, the whole
        // suite stopped).
        let probe = RemoteProbe(health: health, remote: remote, sleep: { [clock] seconds in
            clock.advance(by: seconds)
            try await Task.sleep(for: .milliseconds(1))
        })
        let running = Task { await probe.run() }
        await health.recordFailure(Self.timeout)
        // The probe waits out the backoff (virtual time), fails, backs off again…
        #expect(await Eventually.until { await remote.fetchCount >= 1 })
        #expect(await health.gate() != nil, "an offline remote stays gated while the probe decides")
        #expect(await health.remoteStatus().state == .offline)
        // …and once TMDB answers it, the remote is online and the gate opens.
        await remote.script(.configuration, .success(RemoteResponse(httpStatus: 200, body: Data("{}".utf8))))
        #expect(await Eventually.until { await health.remoteStatus().state == .online })
        #expect(await health.gate() == nil)
        #expect(events.names.filter { $0 == "remote.offline" }.count == 1)
        running.cancel()
        await running.value
    }
}

/// Bounded polling (at most `seconds`) for state another task reaches: the probe and the slow-call
/// timer run on their own tasks.
enum Eventually {
    static func until(seconds: Double = 5, _ condition: @Sendable () async -> Bool) async -> Bool {
        for _ in 0..<Int(seconds * 200) {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return await condition()
    }
}
