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

    @Test func offlineSinceWithRetry() {
        let remote = RemoteStatus(state: .offline, since: now.addingTimeInterval(-3 * 3_600), retryAt: now.addingTimeInterval(120), consecutiveFailures: 4)
        #expect(line(remote) == "offline since 2026-11-18 08:06 UTC (3 h ago), retry in 2 min")
    }

    @Test func authRejectedSaysToCheckTheToken() {
        let remote = RemoteStatus(state: .authRejected, lastError: "Invalid API key", consecutiveFailures: 1)
        #expect(line(remote) == "auth rejected: Invalid API key — check the TMDB token")
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
