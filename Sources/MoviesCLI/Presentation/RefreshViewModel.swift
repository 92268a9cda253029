import Varlink
import MoviesDomain

/// The refresh screen: input `didRequestRefresh(watchlist:)`; outputs the latest progress, the
/// summary, the error, and the exit code (non-zero when anything failed). Knows nothing of the terminal.
final class RefreshViewModel {
    private let client: any MoviesClient

    /// The latest step, while the refresh runs.
    private(set) var progress: RefreshProgress?
    /// The outcome, once the refresh is over.
    private(set) var summary: RefreshSummary?
    /// The error that ended the call, if any.
    private(set) var error: ClientError?
    /// Called after each progress reply.
    var didUpdate: ((RefreshProgress) -> Void)?
    /// Called with each daemon reply's parameters and whether more replies follow (`--json`).
    var didReceiveReply: ((_ parameters: JSONValue, _ continues: Bool) -> Void)?

    /// Creates the view model over `client`.
    init(client: any MoviesClient) {
        self.client = client
    }

    /// Runs (or joins) the refresh of `watchlist` (all lists when `nil`) and waits for its end.
    func didRequestRefresh(watchlist: String?) {
        do {
            try client.refresh(watchlist: watchlist) { reply in
                didReceiveReply?(reply.parameters, reply.continues)
                if let progress = reply.value.progress {
                    self.progress = progress
                    didUpdate?(progress)
                }
                if let summary = reply.value.summary { self.summary = summary }
            }
            if summary == nil { error = .other("moviesd ended the refresh without a summary") }
        } catch let failure {
            error = failure
        }
    }

    /// The share of steps finished, 0...1.
    var fraction: Double {
        guard let progress, progress.total > 0 else { return 0 }
        return min(1, Double(progress.done + progress.failed + progress.skipped) / Double(progress.total))
    }

    /// "Refreshed 40 entries in 3.2 s (2 failed, 1 skipped)."
    var summaryLine: String? {
        guard let summary else { return nil }
        var extras: [String] = []
        if summary.failed > 0 { extras.append("\(summary.failed) failed") }
        if summary.skipped > 0 { extras.append("\(summary.skipped) skipped") }
        let entries = summary.done == 1 ? "1 entry" : "\(summary.done) entries"
        let tenths = (summary.durationSeconds * 10).rounded() / 10
        return "Refreshed \(entries) in \(tenths) s" + (extras.isEmpty ? "." : " (\(extras.joined(separator: ", "))).")
    }

    /// The line to print on standard error when steps failed.
    var failureLine: String? {
        guard let summary, summary.failed > 0 else { return nil }
        let total = summary.done + summary.failed + summary.skipped
        let reason = summary.firstError.map { ": \($0)" } ?? ""
        let hint = summary.authRejected ? "; TMDB rejected the credential, check the daemon's token" : ""
        return "refresh: \(summary.failed) of \(total) steps failed\(reason)\(hint)"
    }

    /// 0 when everything was refreshed; the error's code; 1 when TMDB rejected the credential;
    /// 75 (try again later) when steps failed otherwise.
    var exitCode: ExitCode {
        if let error { return error.exitCode }
        guard let summary, summary.failed > 0 else { return .success }
        return summary.authRejected ? .failure : .temporaryFailure
    }
}
