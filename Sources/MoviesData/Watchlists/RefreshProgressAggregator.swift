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
