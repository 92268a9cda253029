import Synchronization

/// The most recent searches' matches, so paging through one query (a benchmark asks for hundreds
/// of pages of "e") filters the catalogue once rather than once per page. The catalogue never
/// changes, so a remembered answer is always the one a new search would give.
final class SearchMatchesMemo: Sendable {
    /// What a search depends on.
    struct Key: Hashable, Sendable {
        var needle: String
        var includeAdult: Bool
        var year: Int?
    }

    private let entries = Mutex<[Key: [StubMovie]]>([:])
    private let capacity: Int

    /// Creates an empty memo of at most `capacity` searches.
    init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
    }

    /// The matches remembered for `key`, or `search()`'s, remembered (an arbitrary one is dropped when full).
    func matches(for key: Key, search: () -> [StubMovie]) -> [StubMovie] {
        if let known = entries.withLock({ $0[key] }) { return known }
        let found = search()
        entries.withLock { entries in
            if entries.count >= capacity, let victim = entries.keys.first { entries[victim] = nil }
            entries[key] = found
        }
        return found
    }
}
