import MoviesData
import MoviesDomain
import Synchronization

/// `RefreshHistoryStorage` in memory: outlives the refreshers a test makes over it, as the state
/// database outlives a daemon.
public final class InMemoryRefreshHistoryStorage: RefreshHistoryStorage {
    private let summaries = Mutex<[Owner: RefreshSummary]>([:])

    /// Creates an empty history.
    public init() {}

    public func lastRefreshes() async throws -> [Owner: RefreshSummary] { summaries.withLock { $0 } }

    public func saveLastRefresh(_ summary: RefreshSummary, of owner: Owner) async throws { summaries.withLock { $0[owner] = summary } }
}
