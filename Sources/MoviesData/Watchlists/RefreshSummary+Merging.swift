import FoundationEssentials
import MoviesDomain

extension RefreshSummary {
    /// When it started: its end less its duration.
    var startedAt: Date { finishedAt.addingTimeInterval(-durationSeconds) }

    /// The refreshes of several owners' lists that made up one request, as one summary from
    /// `start` to `end`: counts (and pinned bytes and budgets) added up, the first error of the first part that failed, the change
    /// feed's count once (the parts share one run of it).
    static func merged(_ parts: [RefreshSummary], start: Date, end: Date) -> RefreshSummary {
        var merged = RefreshSummary(done: 0, failed: 0, skipped: 0, durationSeconds: max(0, end.timeIntervalSince(start)), finishedAt: end)
        for part in parts {
            merged.done += part.done
            merged.failed += part.failed
            merged.skipped += part.skipped
            if let current = part.current { merged.current = (merged.current ?? 0) + current }
            if let changed = part.changed { merged.changed = max(merged.changed ?? 0, changed) }
            if let overBudget = part.overBudget { merged.overBudget = (merged.overBudget ?? 0) + overBudget }
            if let bytes = part.pinnedBytes { merged.pinnedBytes = (merged.pinnedBytes ?? 0) + bytes }
            if let budget = part.pinBudgetBytes {
                let (sum, overflow) = (merged.pinBudgetBytes ?? 0).addingReportingOverflow(budget)
                merged.pinBudgetBytes = overflow ? .max : sum
            }
            if merged.firstError == nil, let error = part.firstError {
                merged.firstError = error
                merged.authRejected = part.authRejected
            }
        }
        return merged
    }

    /// The last of `summaries` to finish, merged with those that ran at the same time as it (their
    /// times overlap): the last refresh as one caller sees it, however many owners' lists it went
    /// through. `nil` when there is none.
    static func latest(mergingOverlapping summaries: [RefreshSummary]) -> RefreshSummary? {
        guard let last = summaries.max(by: { $0.finishedAt < $1.finishedAt }) else { return nil }
        let together = summaries
            .filter { $0.finishedAt >= last.startedAt && $0.startedAt <= last.finishedAt }
            .sorted { $0.finishedAt < $1.finishedAt }
        let start = together.map(\.startedAt).min() ?? last.startedAt
        return merged(together, start: start, end: last.finishedAt)
    }
}
