import FoundationEssentials
import MoviesData
import MoviesDomain

/// An in-memory `RecentQueriesStorage`: each user's list de-duplicated on the canonical form,
/// newest first, capped.
public actor InMemoryRecentQueriesStorage: RecentQueriesStorage {
    private var queries: [LocalUser: [(query: MovieQuery, date: Date)]] = [:]
    private let capacity: Int
    /// How many times `save` was called.
    public private(set) var saveCount = 0

    /// Creates an empty storage keeping at most `capacity` queries per user.
    public init(capacity: Int = 20) {
        self.capacity = capacity
    }

    /// At most `maxCount` of `user`'s queries, newest first.
    public func recentQueries(of user: LocalUser, maxCount: Int) -> [MovieQuery] {
        Array((queries[user] ?? []).prefix(max(0, maxCount)).map(\.query))
    }

    /// Saves `query` as `user`'s newest, replacing an equal one and dropping the oldest beyond the cap.
    public func save(_ query: MovieQuery, for user: LocalUser, at date: Date) {
        saveCount += 1
        var list = queries[user] ?? []
        list.removeAll { $0.query.canonical == query.canonical }
        list.insert((query, date), at: 0)
        if list.count > capacity { list.removeLast(list.count - capacity) }
        queries[user] = list
    }

    /// Deletes `user`'s queries.
    public func clear(of user: LocalUser) -> Int {
        queries.removeValue(forKey: user)?.count ?? 0
    }
}
