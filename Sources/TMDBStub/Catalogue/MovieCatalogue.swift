import Foundation

/// The stub's deterministic movie catalogue: a few well-known movies at their real ids plus
/// `count` generated ones, all derived from a seed.
public struct MovieCatalogue: Sendable {
    /// Every movie, ordered by id.
    public let movies: [StubMovie]
    private let indexByID: [Int: Int]
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
        return movies
            .filter { movie in
                movie.searchKey.contains(needle)
                    && (includeAdult || !movie.adult)
                    && (yearPrefix.map { movie.releaseDate.hasPrefix($0) } ?? true)
            }
            .sorted { ($0.popularity, -$0.id) > ($1.popularity, -$1.id) }
    }

    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
