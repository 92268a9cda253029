import MoviesDomain

/// A `MoviesQueriesRepository` in memory: newest first, de-duplicated, capped at `capacity`.
actor InMemoryMoviesQueriesRepository: MoviesQueriesRepository {
    private var queries: [MovieQuery] = []
    private let capacity: Int
    private(set) var saveCount = 0
    private(set) var requestedMaxCounts: [Int] = []

    init(capacity: Int = 10) { self.capacity = capacity }

    func recentQueries(maxCount: Int) -> [MovieQuery] {
        requestedMaxCounts.append(maxCount)
        return Array(queries.prefix(maxCount))
    }

    func saveRecentQuery(_ query: MovieQuery) {
        saveCount += 1
        queries.removeAll { $0 == query }
        queries.insert(query, at: 0)
        queries = Array(queries.prefix(capacity))
    }
}
