import FoundationEssentials
@testable import MoviesCLI
import MoviesDomain
import MoviesWire
import Testing

@Suite struct RefreshViewModelTests {
    static func progress(_ done: Int, of total: Int) -> RefreshReply {
        RefreshReply(progress: RefreshProgress(watchlist: "films", step: "movie \(done)", done: done, failed: 0, skipped: 0, total: total))
    }

    static func summary(done: Int, failed: Int = 0, skipped: Int = 0, authRejected: Bool = false, error: String? = nil) -> RefreshReply {
        RefreshReply(summary: RefreshSummary(done: done, failed: failed, skipped: skipped, durationSeconds: 1.26, finishedAt: Fixtures.fetchedAt, firstError: error, authRejected: authRejected))
    }

    @Test func theSummarySaysWhatWasFetchedWhatWasCurrentAndWhatTMDBListedAsChanged() {
        let client = MockMoviesClient()
        let summary = RefreshSummary(done: 104, failed: 0, skipped: 0, durationSeconds: 12, finishedAt: Date(timeIntervalSince1970: 0), current: 10_096, changed: 96)
        client.refreshScript = .init(replies: [Self.progress(1, of: 10_200), RefreshReply(progress: nil, summary: summary)], error: nil)
        let viewModel = RefreshViewModel(client: client)
        viewModel.didRequestRefresh(watchlist: nil, all: true)
        #expect(viewModel.summaryLine == "Checked 10200 entries in 12.0 s: 104 fetched, 10096 current. TMDB listed 96 pinned movies as changed: fetched first.")
        #expect(client.refreshedAll == [true])
    }

    @Test func theSummarySaysWhatThePinBudgetLeftOut() {
        let client = MockMoviesClient()
        let summary = RefreshSummary(
            done: 20, failed: 0, skipped: 0, durationSeconds: 2, finishedAt: Date(timeIntervalSince1970: 0), current: 0,
            overBudget: 130, pinnedBytes: 524_277, pinBudgetBytes: 524_288)
        client.refreshScript = .init(replies: [RefreshReply(progress: nil, summary: summary)], error: nil)
        let viewModel = RefreshViewModel(client: client)
        viewModel.didRequestRefresh(watchlist: nil, all: true)
        #expect(viewModel.summaryLine?.hasSuffix(
            "130 entries not kept offline: the pin budget is full (512.0 KiB of 512.0 KiB pinned); raise [Users] PinnedBytesPerUser= or [Cache] MaxBytes=.") == true,
            "\(viewModel.summaryLine ?? "")")
    }

    @Test func noCredentialIsNotCalledARejectedOne() {
        let client = MockMoviesClient()
        let message = "moviesd has no TMDB credential, so it did not ask TMDB: set MOVIESD_TMDB_TOKEN"
        client.refreshScript = .init(replies: [Self.summary(done: 0, failed: 2, authRejected: true, error: message)], error: nil)
        let viewModel = RefreshViewModel(client: client)
        viewModel.didRequestRefresh(watchlist: nil, all: true)
        #expect(viewModel.failureLine == "refresh: 2 of 2 steps failed: \(message)")
    }

    @Test func followsProgressAndEndsWithTheSummary() {
        let client = MockMoviesClient()
        client.refreshScript = .init(replies: [Self.progress(1, of: 4), Self.progress(2, of: 4), Self.summary(done: 3, skipped: 1)], error: nil)
        let viewModel = RefreshViewModel(client: client)
        var seen: [Int] = []
        viewModel.didUpdate = { seen.append($0.done) }
        viewModel.didRequestRefresh(watchlist: "films")
        #expect(seen == [1, 2])
        #expect(viewModel.fraction == 0.5)
        #expect(viewModel.summaryLine == "Checked 4 entries in 1.3 s: 3 fetched (1 skipped).", "a daemon before 0.2 does not count current entries")
        #expect(viewModel.failureLine == nil)
        #expect(viewModel.exitCode == .success)
        #expect(client.refreshedNames == ["films"])
    }

    @Test func failedStepsMakeTheExitCodeNonZero() {
        let client = MockMoviesClient()
        client.refreshScript = .init(replies: [Self.summary(done: 1, failed: 2, error: "TMDB is unreachable")], error: nil)
        let viewModel = RefreshViewModel(client: client)
        viewModel.didRequestRefresh(watchlist: nil)
        #expect(viewModel.exitCode == .temporaryFailure)
        #expect(viewModel.failureLine == "refresh: 2 of 3 steps failed: TMDB is unreachable")
    }

    @Test func authRejectionIsItsOwnFailure() {
        let client = MockMoviesClient()
        client.refreshScript = .init(replies: [Self.summary(done: 0, failed: 1, authRejected: true, error: "Invalid API key")], error: nil)
        let viewModel = RefreshViewModel(client: client)
        viewModel.didRequestRefresh(watchlist: nil)
        #expect(viewModel.exitCode == .failure)
        #expect(viewModel.failureLine?.contains("rejected the credential") == true)
        // The daemon's reason already says so: once, not twice.
        let said = MockMoviesClient()
        said.refreshScript = .init(
            replies: [Self.summary(done: 0, failed: 1, authRejected: true, error: "TMDB rejected the credential (Invalid API key); check the configured token.")], error: nil)
        let told = RefreshViewModel(client: said)
        told.didRequestRefresh(watchlist: nil)
        #expect(told.failureLine?.components(separatedBy: "rejected the").count == 2, "\(told.failureLine ?? "")")
    }

    @Test func aCallErrorKeepsItsExitCode() {
        let client = MockMoviesClient()
        client.refreshScript = .init(replies: [], error: .permissionDenied("no"))
        let viewModel = RefreshViewModel(client: client)
        viewModel.didRequestRefresh(watchlist: nil)
        #expect(viewModel.exitCode == .noPermission)
    }
}
