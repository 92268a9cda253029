import Foundation

/// The stub's deterministic movie catalogue: a few well-known movies at their real ids plus
/// `count` generated ones, all derived from a seed.
public struct MovieCatalogue: Sendable {
    /// Every movie, ordered by id.
    public let movies: [StubMovie]
    private let indexByID: [Int: Int]
    /// Each movie's folded search key as UTF-8 (in `movies`' order): a search compares bytes and
    /// copies no movie it does not return, so a search over 50,000 movies costs the stub a few
    /// milliseconds, not a tenth of a second (the stub shares the machine it is measured on).
    private let searchBytes: [[UInt8]]
    /// For each pair of adjacent bytes in some search key, the movies (indices into `movies`, in
    /// order) whose key holds it: a search scans only the movies holding its query's rarest pair,
    /// so a query matching nothing (what a benchmark's writes ask) costs the stub almost nothing.
    private let moviesByBytePair: [UInt16: [Int32]]
    private let imagePaths: Set<String>
    private let recentSearches = SearchMatchesMemo()

    /// Builds the catalogue for `seed` with `count` generated movies (plus the well-known ones).
    public init(seed: UInt64, count: Int) {
        var generator = CatalogueGenerator(seed: seed)
        let fixed = WellKnownMovies.all
        let generated = generator.movies(count: max(0, count), avoiding: Set(fixed.map(\.id)))
        movies = (fixed + generated)
            .map { movie in
                var keyed = movie
                keyed.searchKey = Self.fold(movie.title + "\n" + movie.originalTitle)
                return keyed
            }
            .sorted { $0.id < $1.id }
        indexByID = Dictionary(uniqueKeysWithValues: movies.enumerated().map { ($1.id, $0) })
        searchBytes = movies.map { Array($0.searchKey.utf8) }
        moviesByBytePair = Self.bytePairIndex(searchBytes)
        imagePaths = Set(movies.flatMap { [$0.posterPath, $0.backdropPath].compactMap { $0 } + $0.productionCompanies.compactMap(\.logoPath) })
    }

    /// The movie with TMDB id `id`, or nil.
    public func movie(id: Int) -> StubMovie? {
        indexByID[id].map { movies[$0] }
    }

    /// Whether `path` (`/abc.jpg`) is the poster, backdrop or a company logo of some movie.
    public func containsImage(path: String) -> Bool {
        imagePaths.contains(path)
    }

    /// All movies whose title or original title contains `query`, ignoring case and diacritics,
    /// most popular first (ties by id), so pagination is stable.
    /// - Parameters:
    ///   - includeAdult: whether adult titles are included (TMDB's `include_adult`).
    ///   - year: when set, only movies released that year.
    public func search(query: String, includeAdult: Bool = false, year: Int? = nil) -> [StubMovie] {
        let needle = Self.fold(query.trimmingCharacters(in: .whitespaces))
        guard !needle.isEmpty else { return [] }
        let key = SearchMatchesMemo.Key(needle: needle, includeAdult: includeAdult, year: year)
        return recentSearches.matches(for: key) { matches(needle: needle, includeAdult: includeAdult, year: year) }
    }

    private func matches(needle: String, includeAdult: Bool, year: Int?) -> [StubMovie] {
        let yearPrefix = year.map { String(format: "%04d-", $0) }
        let needleBytes = Array(needle.utf8)
        return candidates(for: needleBytes)
            .filter { index in
                Self.contains(searchBytes[index], needleBytes)
                    && (includeAdult || !movies[index].adult)
                    && (yearPrefix.map { movies[index].releaseDate.hasPrefix($0) } ?? true)
            }
            .map { movies[$0] }
            .sorted { ($0.popularity, -$0.id) > ($1.popularity, -$1.id) }
    }

    /// The movies that may contain `needle`: those holding its rarest byte pair (every movie for a
    /// one-byte needle), in `movies`' order.
    private func candidates(for needle: [UInt8]) -> [Int] {
        guard needle.count >= 2 else { return Array(movies.indices) }
        var rarest: [Int32]?
        for start in 0..<(needle.count - 1) {
            let postings = moviesByBytePair[Self.pair(needle[start], needle[start + 1])] ?? []
            if postings.count < rarest?.count ?? Int.max { rarest = postings }
        }
        return (rarest ?? []).map(Int.init)
    }

    private static func pair(_ first: UInt8, _ second: UInt8) -> UInt16 {
        UInt16(first) << 8 | UInt16(second)
    }

    private static func bytePairIndex(_ keys: [[UInt8]]) -> [UInt16: [Int32]] {
        var index: [UInt16: [Int32]] = [:]
        for (movie, key) in keys.enumerated() where key.count >= 2 {
            var seen = Set<UInt16>()
            for start in 0..<(key.count - 1) {
                let pair = pair(key[start], key[start + 1])
                if seen.insert(pair).inserted { index[pair, default: []].append(Int32(movie)) }
            }
        }
        return index
    }

    /// Whether `needle`'s bytes occur in `haystack` (titles are short: a plain scan).
    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == first {
            if haystack[start..<start + needle.count].elementsEqual(needle) { return true }
        }
        return false
    }

    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
