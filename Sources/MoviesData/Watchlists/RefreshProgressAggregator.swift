import MoviesDomain
import Synchronization

/// Follows the refreshes of several owners' lists that make up one request (root's refresh of
/// every list, the admin group's of the system's and their own) and reports their progress as
/// one (`RefreshProgress.combined`) each time one of them takes a step.
final class RefreshProgressAggregator: Sendable {
    private let parts = Mutex<[Int: RefreshProgress]>([:])
    private let onProgress: @Sendable (RefreshProgress) -> Void

    /// Creates an aggregator reporting to `onProgress`.
    init(onProgress: @escaping @Sendable (RefreshProgress) -> Void) {
        self.onProgress = onProgress
    }

    /// The progress reporter of part `index`.
    func reporter(ofPart index: Int) -> @Sendable (RefreshProgress) -> Void {
        { progress in self.report(progress, part: index) }
    }

    private func report(_ progress: RefreshProgress, part: Int) {
        let combined = parts.withLock { parts in
            parts[part] = progress
            return RefreshProgress.combined(parts.values, newest: progress)
        }
        onProgress(combined)
    }
}

extension RefreshProgress {
    /// Several refreshes' progress as one (a refresh of several owners' lists, or what `Status`
    /// shows of those running): their counts added up, the list and step of `newest`.
    static func combined(_ parts: some Sequence<RefreshProgress>, newest: RefreshProgress) -> RefreshProgress {
        var combined = RefreshProgress(watchlist: newest.watchlist, step: newest.step, done: 0, failed: 0, skipped: 0, total: 0)
        for part in parts {
            combined.done += part.done
            combined.failed += part.failed
            combined.skipped += part.skipped
            combined.total += part.total
            if let current = part.current { combined.current = (combined.current ?? 0) + current }
        }
        return combined
    }
}
