import MoviesData
import MoviesDomain
import Synchronization

/// `RefreshHistoryStorage` in memory: outlives the refreshers a test makes over it, as the state
/// database outlives a daemon.
public final class InMemoryRefreshHistoryStorage: RefreshHistoryStorage {
    private let summary = Mutex<RefreshSummary?>(nil)

    /// Creates an empty history.
    public init() {}

    public func lastRefresh() async throws -> RefreshSummary? { summary.withLock { $0 } }

    public func saveLastRefresh(_ summary: RefreshSummary) async throws { self.summary.withLock { $0 = summary } }
}
