/// A cache key as `HotAnswers` files it: the key with its hash computed once. Cache keys share
/// long prefixes (`search/movie?query=…&language=&page=`), so comparing two of them byte by byte
/// while probing a table of thousands was a fifth of the daemon's time over a wide working set;
/// probing now compares hashes, and the bytes only of the key that matches.
struct HotAnswerKey: Hashable, Sendable {
    let key: String
    private let hash: Int

    init(_ key: String) {
        self.key = key
        var hasher = Hasher()
        hasher.combine(key)
        hash = hasher.finalize()
    }

    static func == (lhs: HotAnswerKey, rhs: HotAnswerKey) -> Bool {
        lhs.hash == rhs.hash && lhs.key == rhs.key
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }
}
