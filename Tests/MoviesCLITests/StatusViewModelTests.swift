import FoundationEssentials
@testable import MoviesCLI
import MoviesDomain
import Testing

@Suite struct StatusViewModelTests {
    let now = Fixtures.fetchedAt

    func line(_ remote: RemoteStatus) -> String {
        StatusViewModel(client: MockMoviesClient(), now: { now }).remoteLine(remote)
    }

    @Test func online() {
        #expect(line(RemoteStatus(state: .online)) == "online")
    }

    @Test func onlineThroughASharedCacheSaysHowManyAnswersItServed() {
        let shared = SharedCacheStatus(lastStatus: "HIT", via: "1.1 tmdb-cache", hits: 80, misses: 20)
        #expect(line(RemoteStatus(state: .online, sharedCache: shared)) == "online through a shared cache (1.1 tmdb-cache): 80 of 100 answers from its cache, last HIT")
    }

    @Test func offlineSinceWithRetry() {
        let remote = RemoteStatus(state: .offline, since: now.addingTimeInterval(-3 * 3_600), retryAt: now.addingTimeInterval(120), consecutiveFailures: 4)
        #expect(line(remote) == "offline since 2026-11-18 08:06 UTC (3 h ago), retry in 2 min")
    }

    @Test func authRejectedSaysToCheckTheToken() {
        let remote = RemoteStatus(state: .authRejected, lastError: "Invalid API key", consecutiveFailures: 1)
        #expect(line(remote) == "auth rejected: Invalid API key — check the TMDB token: /etc/moviesd/tmdb-token, or ~/.config/moviesd/tmdb-token for your own daemon (moviesd(8), CREDENTIALS)")
        // The daemon's own message already says to check it: once, not twice.
        let told = RemoteStatus(state: .authRejected, lastError: "TMDB rejected the credential (Invalid API key); check the configured token.", consecutiveFailures: 1)
        let said = line(told)
        #expect(said.components(separatedBy: "check the").count == 2 && said.contains("/etc/moviesd/tmdb-token"), "\(said)")
    }

    /// No credential is not a rejected one: the daemon says which (it said "auth rejected").
    @Test func aMissingCredentialSaysSoNotAuthRejected() {
        let remote = RemoteStatus(state: .unknown, credential: .missing)
        #expect(line(remote) == "no credential configured, answering from the cache only (to use TMDB, set a token: moviesd(8))")
        #expect(line(RemoteStatus(state: .unknown, credential: .configured)) == "unknown (no request made yet)")
    }

    @Test func theChangeFeedLineSaysWhereTheCursorIsAndWhatTheLastRunDid() {
        let viewModel = StatusViewModel(client: MockMoviesClient(), now: { now })
        let ran = now.addingTimeInterval(-2 * 3_600)
        #expect(viewModel.changeFeedLine(ChangeFeedStatus()) == "not run yet")
        #expect(viewModel.changeFeedLine(ChangeFeedStatus(
            syncedThrough: "2026-11-18", lastRunAt: ran, lastOutcome: .ok, changedCached: 12, refetched: 3, validated: 9_400, requests: 5))
            == "synced through 2026-11-18, last run 2026-11-18 09:06 UTC (2 h ago): 12 changed, 3 fetched again, 9400 kept fresh, 5 request(s)")
        #expect(viewModel.changeFeedLine(ChangeFeedStatus(syncedThrough: "2026-11-17", lastRunAt: ran, lastOutcome: .failed, lastError: "TMDB reset the connection."))
            == "failed at 2026-11-18 09:06 UTC (2 h ago): TMDB reset the connection. (still synced through 2026-11-17)")
        #expect(viewModel.changeFeedLine(ChangeFeedStatus(syncedThrough: "2026-11-18", lastRunAt: ran, lastOutcome: .fullRevalidation, refetched: 40, requests: 40))
            .contains("could not bridge the gap: 40 pinned movie(s) fetched again"))
    }

    @Test func errorIsKept() {
        let client = MockMoviesClient()
        client.statusResult = .failure(.daemonUnreachable(socketPath: "/s", reason: "refused"))
        let viewModel = StatusViewModel(client: client)
        viewModel.didLoad()
        #expect(viewModel.fields.isEmpty)
        #expect(viewModel.error == .daemonUnreachable(socketPath: "/s", reason: "refused"))
    }

    @Test(arguments: [(0.0, "1970-01-01 00:00 UTC"), (951_782_400, "2000-02-29 00:00 UTC"), (1_795_000_000, "2026-11-18 11:06 UTC"), (-60, "1969-12-31 23:59 UTC")])
    func formatsUTCTimestamps(seconds: Double, expected: String) {
        #expect(UTCTimestamp.describe(Date(timeIntervalSince1970: seconds)) == expected)
    }
}
