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

    /// Runs (or joins) the refresh of `watchlist` (all lists when `nil`) and waits for its end:
    /// what is due, or every entry with `all`.
    func didRequestRefresh(watchlist: String?, all: Bool = false) {
        do {
            try client.refresh(watchlist: watchlist, all: all) { reply in
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
        return min(1, Double(Self.finished(progress)) / Double(progress.total))
    }

    /// The steps of `progress` that are over: fetched, left alone as current, failed or skipped.
    static func finished(_ progress: RefreshProgress) -> Int {
        progress.done + progress.failed + progress.skipped + (progress.current ?? 0)
    }

    /// "Checked 40 entries in 3.2 s: 3 fetched, 36 current (1 failed). TMDB listed 2 pinned
    /// movies as changed: fetched first."
    var summaryLine: String? {
        guard let summary else { return nil }
        let checked = summary.done + summary.failed + summary.skipped + (summary.current ?? 0)
        var extras: [String] = []
        if summary.failed > 0 { extras.append("\(summary.failed) failed") }
        if summary.skipped > 0 { extras.append("\(summary.skipped) skipped") }
        let entries = checked == 1 ? "1 entry" : "\(checked) entries"
        let tenths = (summary.durationSeconds * 10).rounded() / 10
        var line = "Checked \(entries) in \(tenths) s: \(summary.done) fetched"
        if let current = summary.current { line += ", \(current) current" }
        line += extras.isEmpty ? "." : " (\(extras.joined(separator: ", ")))."
        if let changed = summary.changed, changed > 0 {
            line += " TMDB listed \(changed == 1 ? "1 pinned movie" : "\(changed) pinned movies") as changed: fetched first."
        }
        if let overBudget = summary.overBudget, overBudget > 0 {
            let budget = summary.pinBudgetBytes.map { " of \(ByteCount.describe($0))" } ?? ""
            let pinned = summary.pinnedBytes.map { " (\(ByteCount.describe($0))\(budget) pinned)" } ?? ""
            line += " \(overBudget == 1 ? "1 entry" : "\(overBudget) entries") not kept offline: the pin budget is full\(pinned);"
                + " raise [Users] PinnedBytesPerUser= or [Cache] MaxBytes=."
        }
        return line
    }

    /// The line to print on standard error when steps failed.
    var failureLine: String? {
        guard let summary, summary.failed > 0 else { return nil }
        let total = summary.done + summary.failed + summary.skipped + (summary.current ?? 0)
        let reason = summary.firstError.map { ": \($0)" } ?? ""
        // moviesd says itself when it has no credential at all, and usually that TMDB rejected one
        // (then not twice); a rejected one is TMDB's answer.
        let unconfigured = summary.firstError?.contains("has no TMDB credential") ?? false
        let told = summary.firstError?.contains("rejected the") ?? false
        let hint = summary.authRejected && !unconfigured && !told ? "; TMDB rejected the credential, check the daemon's token" : ""
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
