import FoundationEssentials
import MoviesData
import MoviesDomain

/// An in-memory `RecentQueriesStorage`: de-duplicated on the canonical form, newest first, capped.
public actor InMemoryRecentQueriesStorage: RecentQueriesStorage {
    private var queries: [(query: MovieQuery, date: Date)] = []
    private let capacity: Int
    /// How many times `save` was called.
    public private(set) var saveCount = 0

    /// Creates an empty storage keeping at most `capacity` queries.
    public init(capacity: Int = 20) {
        self.capacity = capacity
    }

    /// At most `maxCount` queries, newest first.
    public func recentQueries(maxCount: Int) -> [MovieQuery] {
        Array(queries.prefix(max(0, maxCount)).map(\.query))
    }

    /// Saves `query` as the newest, replacing an equal one and dropping the oldest beyond the cap.
    public func save(_ query: MovieQuery, at date: Date) {
        saveCount += 1
        queries.removeAll { $0.query.canonical == query.canonical }
        queries.insert((query, date), at: 0)
        if queries.count > capacity { queries.removeLast(queries.count - capacity) }
    }
}
