import MoviesDomain

/// A `MoviesQueriesRepository` in memory: each user's list newest first, de-duplicated, capped at
/// `capacity`.
actor InMemoryMoviesQueriesRepository: MoviesQueriesRepository {
    private var queries: [LocalUser: [MovieQuery]] = [:]
    private let capacity: Int
    private(set) var saveCount = 0
    private(set) var requestedMaxCounts: [Int] = []

    init(capacity: Int = 10) { self.capacity = capacity }

    func recentQueries(of user: LocalUser, maxCount: Int) -> [MovieQuery] {
        requestedMaxCounts.append(maxCount)
        return Array((queries[user] ?? []).prefix(maxCount))
    }

    func saveRecentQuery(_ query: MovieQuery, for user: LocalUser) {
        saveCount += 1
        var list = queries[user] ?? []
        list.removeAll { $0 == query }
        list.insert(query, at: 0)
        queries[user] = Array(list.prefix(capacity))
    }

    func clearRecentQueries(of user: LocalUser) -> Int {
        queries.removeValue(forKey: user)?.count ?? 0
    }
}
