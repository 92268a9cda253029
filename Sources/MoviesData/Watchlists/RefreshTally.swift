import FoundationEssentials
import MoviesDomain

/// The running counts of one refresh.
struct RefreshTally: Sendable {
    var watchlist = ""
    var done = 0
    var failed = 0
    var skipped = 0
    /// Steps left alone: their cached entry is current.
    var current = 0
    var total = 0
    /// Pinned movies the change feed fetched again before the lists (`nil` without the feed).
    var changed: Int?
    var firstError: MoviesError?
    /// Entries left unpinned: the owner's pins reached their budget (`PinBudget`).
    var overBudget = 0
    /// The cache keys of the steps gone through (not left alone for the budget), in list order:
    /// what the run pins at its end.
    var keys: [String] = []
    /// The owner's pinned bytes after the run, and their budget.
    var pinnedBytes: Int64?
    var pinBudgetBytes: Int64?

    /// The key of `step` for the run to pin, unless it was left alone for the budget.
    static func key(of step: RefreshStep, _ result: Result<RefreshStepDone, MoviesError>, language: String?) -> String? {
        if case .success(let done) = result, done.outcome == nil { return nil }
        return step.cacheKey(language: language)
    }

    /// Records a failed step (keeping the first error).
    mutating func fail(_ error: MoviesError) {
        failed += 1
        if firstError == nil { firstError = error }
    }

    /// The progress record after `step`.
    func progress(_ step: String) -> RefreshProgress {
        RefreshProgress(watchlist: watchlist, step: step, done: done, failed: failed, skipped: skipped, total: total, current: current)
    }

    /// The summary of a refresh that started at `start` and finished at `end`.
    func summary(start: Date, end: Date) -> RefreshSummary {
        RefreshSummary(
            done: done, failed: failed, skipped: skipped,
            durationSeconds: max(0, end.timeIntervalSince(start)), finishedAt: end,
            firstError: firstError?.message, authRejected: firstError?.isAuthRejection ?? false, current: current, changed: changed,
            overBudget: overBudget, pinnedBytes: pinnedBytes, pinBudgetBytes: pinBudgetBytes)
    }
}
