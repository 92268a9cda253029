/// What to search for: a query, a page, and TMDB's optional `language`, `region` and `year`.
///
/// Each of them changes TMDB's answer, so each is part of the cache key
/// ([TMDB: Search movies](https://developer.themoviedb.org/reference/search-movie)).
public struct SearchRequest: Sendable, Hashable {
    /// The highest page TMDB serves; larger pages are rejected locally, as TMDB does (code 22).
    public static let maxPage = 500
    /// The release years accepted: from the first films (1874) to well past any announced one.
    public static let years = 1874...2100

    public let query: MovieQuery
    public let page: Int
    /// A TMDB language tag such as `en-US`; `nil` means TMDB's default.
    public let language: String?
    /// An ISO 3166-1 alpha-2 code (`GB`, upper case): TMDB lists the release dates of that region
    /// and filters by them; `nil` means none.
    public let region: String?
    /// Only movies released that year (TMDB's `year`, any release of the movie); `nil` means any year.
    public let year: Int?

    /// Creates a request, validating the page against `1...maxPage`, the language tag, the region
    /// code and the year.
    /// - Throws: `MoviesError.invalidArgument` whose `parameter` names the bad argument.
    public init(query: MovieQuery, page: Int = 1, language: String? = nil, region: String? = nil, year: Int? = nil) throws(MoviesError) {
        guard (1...SearchRequest.maxPage).contains(page) else {
            throw MoviesError.invalidArgument("page must be between 1 and \(SearchRequest.maxPage), got \(page)", parameter: "page")
        }
        try Self.checkLanguage(language)
        if let region, !SearchRequest.isValidRegion(region) {
            throw MoviesError.invalidArgument("region must be an ISO 3166-1 code of two upper-case letters such as 'GB', got '\(region)'", parameter: "region")
        }
        if let year, !SearchRequest.years.contains(year) {
            throw MoviesError.invalidArgument("year must be a year from \(SearchRequest.years.lowerBound) to \(SearchRequest.years.upperBound), got \(year)", parameter: "year")
        }
        self.query = query
        self.page = page
        self.language = language
        self.region = region
        self.year = year
    }

    /// Checks a `language` argument (of a search, or of a movie's details).
    /// - Throws: `MoviesError.invalidArgument` naming `language` when `tag` is not `nil` and not
    ///   a language tag (`isValidLanguage`).
    public static func checkLanguage(_ tag: String?) throws(MoviesError) {
        guard let tag, !isValidLanguage(tag) else { return }
        throw MoviesError.invalidArgument("language must look like 'en' or 'en-US', got '\(tag)'", parameter: "language")
    }

    /// Whether `tag` looks like a TMDB language tag: `xx` or `xx-YY` (letters).
    public static func isValidLanguage(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts[0].count == 2 else { return false }
        return parts.allSatisfy { part in
            (2...3).contains(part.count) && part.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic }
        }
    }

    /// Whether `code` is two ASCII upper-case letters, the shape of an ISO 3166-1 alpha-2 code.
    public static func isValidRegion(_ code: String) -> Bool {
        code.unicodeScalars.count == 2 && code.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) }
    }
}
