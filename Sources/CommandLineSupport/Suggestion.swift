/// "Did you mean …?" for a mistyped name: the one rule of `movies` (commands and options) and
/// `moviesd` (options, configuration sections and keys).
public enum Suggestion {
    /// The candidate `input` differs from only in case (`loglevel`: `LogLevel`), else a candidate that
    /// `input` is a prefix of, else the candidate closest to `input` by edit distance when it is close
    /// enough to be a plausible typo (at most a third of the longer name, and at most 2 edits).
    public static func closest(to input: String, among candidates: [String]) -> String? {
        if let sameLetters = candidates.first(where: { $0 != input && $0.lowercased() == input.lowercased() }) { return sameLetters }
        if let prefixed = candidates.filter({ $0.hasPrefix(input) && input.count >= 2 }).first { return prefixed }
        let scored = candidates.map { (name: $0, distance: distance(Array(input), Array($0))) }
        guard let best = scored.min(by: { $0.distance < $1.distance }) else { return nil }
        let limit = min(2, max(1, max(input.count, best.name.count) / 3))
        return best.distance <= limit ? best.name : nil
    }

    /// The edit distance between two character arrays, a swap of two neighbours counting as one
    /// edit ("tvs" for "tsv", "--sokcet" for "--socket": the optimal string alignment distance),
    /// one row at a time.
    public static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var beforePrevious: [Int] = []
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            beforePrevious = previous
            previous = current
        }
        return previous[b.count]
    }
}
