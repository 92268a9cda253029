extension TMDBStubServer {
    /// `{"requests":{"/3/search/movie":N,...},"total":N}`: requests per path received on the main port.
    public var statisticsJSON: JSONValue {
        let (counts, total) = state.withLock { ($0.requestCounts, $0.totalRequests) }
        return .object([
            ("requests", .object(counts.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.int($0.value)) })),
            ("total", .int(total)),
        ])
    }
}
